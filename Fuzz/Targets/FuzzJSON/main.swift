import Foundation
import FuzzSupport

exit(runFuzzer(fuzzJSON))

/// The loader's JSON readers on arbitrary bytes: the strict check (``JSONScanner``) and the shallow decoder
/// (``ShallowDecoder``), the root package's files, linked here with the models they decode.
///
/// The properties, each a crash (and the input kept) when broken:
/// - text the strict check accepts, Foundation's lenient `JSONSerialization` reads too, but for a number beyond a
///   `Double`'s range (which `jsonb` stores);
/// - a field the check locates (`data.signedTransactionInfo`, `data.signedRenewalInfo`) is a string member of the
///   top-level object's member, and the bytes it points at are a JSON string whose value is that member's, as
///   `JSONSerialization` reads it; a field it does not locate is absent there or not a string;
/// - a model the shallow decoder decodes, `JSONDecoder` decodes to the same value, and a model the shallow decoder
///   refuses with an error of the model's own (not ``ShallowDecoder/Unsupported``), `JSONDecoder` refuses too.
func fuzzJSON(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let data = Data(UnsafeBufferPointer(start: start, count: count))
    let fields = [("data", "signedTransactionInfo"), ("data", "signedRenewalInfo")]
    guard
        let (located, members) = try? JSONScanner.scan(
            data, locating: fields.map { JSONScanner.Field($0.0, $0.1) }, recordingMembers: true)
    else { return 0 }

    let lenient: Any
    do {
        lenient = try JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed])
    } catch {
        // JSONSerialization reads every number as a Double or an integer and refuses one beyond a Double's range
        // ("Number 1e400 is not representable in Swift"), which `jsonb` stores and `JSONDecoder` reads when no model
        // field holds it: that refusal alone is allowed.
        precondition(
            "\(error)".contains("is not representable"),
            "the strict check accepted text JSONSerialization refuses: \(error)")
        return 0
    }
    for (field, range) in zip(fields, located) {
        let value = ((lenient as? [String: Any])?[field.0] as? [String: Any])?[field.1]
        guard let range else {
            precondition(!(value is String), "\(field.0).\(field.1) is a string the check did not locate")
            continue
        }
        let literal = try? JSONSerialization.jsonObject(with: data[range], options: [.fragmentsAllowed])
        precondition(literal is String, "\(field.0).\(field.1) was located at bytes that are not a JSON string")
        precondition(
            (literal as? String) == (value as? String), "\(field.0).\(field.1) located at another string than its own")
    }

    check(ResponseBodyV2DecodedPayload.self, data, members)
    check(JWSTransactionDecodedPayload.self, data, members)
    check(JWSRenewalInfoDecodedPayload.self, data, members)
    check(AppTransaction.self, data, members)
    return 0
}

/// The shallow decoder's value of `type` equals `JSONDecoder`'s wherever the shallow decoder gives one.
func check<Value: ScannedDecodable & Equatable>(
    _ type: Value.Type, _ data: Data, _ members: [JSONScanner.Member]
) {
    let shallow = data.withUnsafeBytes { bytes in
        Result { try ShallowDecoder.decode(type, bytes: bytes, members: members) }
    }
    switch shallow {
    case .success(let value):
        let decoded = try? JSONDecoder().decode(type, from: data)
        precondition(decoded == value, "\(type): the shallow decoder's value is not JSONDecoder's")
    case .failure(let error) where !(error is ShallowDecoder.Unsupported):
        precondition(
            (try? JSONDecoder().decode(type, from: data)) == nil,
            "\(type): the shallow decoder refused what JSONDecoder decodes: \(error)")
    case .failure:
        break
    }
}
