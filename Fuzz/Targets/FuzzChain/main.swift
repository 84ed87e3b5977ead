import AppStoreNotifications
import Crypto
import Foundation
import FuzzSupport
import SwiftASN1
import X509

exit(runFuzzer(fuzzChain))

/// A token's certificate chain and signature as the loader verifies them (``JWSVerifier``), from arbitrary bytes
/// (mostly tokens signed by Apple's test PKI, mutated): bounded work, and nothing trusted that should not be.
///
/// The properties, each a crash (and the input kept) when broken; libFuzzer's time-out (10 s an input in `make fuzz`)
/// keeps the work bounded:
/// - under Apple Root CA - G3, the production root `churn` trusts by default, nothing verifies: no input here was
///   signed by one of Apple's keys;
/// - under Apple's test root, a token that verifies carries in `x5c` a leaf whose key is the test leaf's, and its
///   signature verifies with that key over the signing input, checked here with swift-crypto alone: a token signed
///   by any other key never passes;
/// - the same token verified again (its chain's outcome now cached) gives the same outcome.
func fuzzChain(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let input = Array(UnsafeBufferPointer(start: start, count: count))
    guard let jws = try? JWS.parse(bytes: input[...]) else { return 0 }
    let underApple = Chain.outcome(Chain.apple, jws)
    precondition(underApple != nil, "a token verified under Apple's production root")
    let underTest = Chain.outcome(Chain.test, jws)
    if underTest == nil {
        let x5c = jws.header.x5c ?? []
        let leaf = x5c.first.flatMap { Data(base64Encoded: $0) }.flatMap { try? Certificate(derEncoded: Array($0)) }
        let key = leaf.flatMap { P256.Signing.PublicKey($0.publicKey) }
        precondition(
            key?.rawRepresentation == Chain.testLeafKey.rawRepresentation,
            "a token verified with a leaf whose key is not the test leaf's")
        let signature = try? P256.Signing.ECDSASignature(rawRepresentation: jws.signature)
        precondition(
            signature.map { Chain.testLeafKey.isValidSignature($0, for: SHA256.hash(data: Array(jws.signingInput))) }
                == true,
            "a token verified whose signature is not the test leaf's over its signing input")
    }
    let again = Chain.outcome(Chain.test, jws)
    precondition(
        again == underTest,
        "the same token verified again differs: \(again.map(String.init(describing:)) ?? "verified") against "
            + "\(underTest.map(String.init(describing:)) ?? "verified")")
    return 0
}

enum Chain {
    /// Apple's test root (`shared/samples/apple-test-pki/testCA.der`), standard base64.
    static let testRootBase64 =
        "MIIBgjCCASmgAwIBAgIJALUc5ALiH5pbMAoGCCqGSM49BAMDMDYxCzAJBgNVBAYTAlVTMRMwEQYDVQQIDApDYWxpZm9ybmlhMRIw"
        + "EAYDVQQHDAlDdXBlcnRpbm8wHhcNMjMwMTA1MjEzMDIyWhcNMzMwMTAyMjEzMDIyWjA2MQswCQYDVQQGEwJVUzETMBEGA1UECAwK"
        + "Q2FsaWZvcm5pYTESMBAGA1UEBwwJQ3VwZXJ0aW5vMFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAEc+/Bl+gospo6tf9Z7io5tdKd"
        + "rlN1YdVnqEhEDXDShzdAJPQijamXIMHf8xWWTa1zgoYTxOKpbuJtDplz1XriTaMgMB4wDAYDVR0TBAUwAwEB/zAOBgNVHQ8BAf8E"
        + "BAMCAQYwCgYIKoZIzj0EAwMDRwAwRAIgemWQXnMAdTad2JDJWng9U4uBBL5mA7WI05H7oH7c6iQCIHiRqMjNfzUAyiu9h6rOU/K+"
        + "iTR0I/3Y/NSWsXHX+acc"

    /// Apple's test leaf certificate (`shared/samples/apple-test-pki/testLeaf.pem`), standard base64.
    static let testLeafBase64 =
        "MIIBoDCCAUagAwIBAgIBDDAKBggqhkjOPQQDAzBFMQswCQYDVQQGEwJVUzELMAkGA1UECAwCQ0ExEjAQBgNVBAcMCUN1cGVydGlu"
        + "bzEVMBMGA1UECgwMSW50ZXJtZWRpYXRlMB4XDTIzMDEwNTIxMzEzNFoXDTMzMDEwMTIxMzEzNFowPTELMAkGA1UEBhMCVVMxCzAJ"
        + "BgNVBAgMAkNBMRIwEAYDVQQHDAlDdXBlcnRpbm8xDTALBgNVBAoMBExlYWYwWTATBgcqhkjOPQIBBggqhkjOPQMBBwNCAATitYHE"
        + "aYVuc8g9AjTOwErMvGyPykPa+puvTI8hJTHZZDLGas2qX1+ErxgQTJgVXv76nmLhhRJH+j25AiAI8iGsoy8wLTAJBgNVHRMEAjAA"
        + "MA4GA1UdDwEB/wQEAwIHgDAQBgoqhkiG92NkBgsBBAIFADAKBggqhkjOPQQDAwNIADBFAiBX4c+T0Fp5nJ5QRClRfu5PSByRvNPt"
        + "uaTsk0vPB3WAIAIhANgaauAj/YP9s0AkEhyJhxQO/6Q2zouZ+H1CIOehnMzQ"

    static let test = JWSVerifier(trustRoots: [certificate(testRootBase64)])
    static let apple: JWSVerifier = {
        do { return try JWSVerifier() } catch { fatalError("Apple Root CA - G3 does not read: \(error)") }
    }()
    static let testLeafKey: P256.Signing.PublicKey = {
        guard let key = P256.Signing.PublicKey(certificate(testLeafBase64).publicKey) else {
            fatalError("the test leaf has no P-256 key")
        }
        return key
    }()
    /// A moment inside the test PKI's validity: the billing-lifecycle samples' first signedDate.
    static let signedDate = Date(timeIntervalSince1970: 1_711_843_260)

    static func certificate(_ base64: String) -> Certificate {
        guard let der = Data(base64Encoded: base64), let certificate = try? Certificate(derEncoded: Array(der)) else {
            fatalError("a certificate of the target does not read")
        }
        return certificate
    }

    /// Nil when the token verifies, else the refusal.
    static func outcome(_ verifier: JWSVerifier, _ jws: JWS) -> JWSVerificationError? {
        do {
            try verifier.verify(jws, at: signedDate)
            return nil
        } catch {
            return error
        }
    }
}
