import Crypto
import Foundation
import SwiftASN1
import Synchronization
@_spi(DisableValidityCheck) import X509

/// Verifies App Store JWS tokens offline, as Apple's `SignedDataVerifier` does with online checks off: the chain in
/// `x5c` must lead to a configured trust root, and the signature must be the leaf's.
///
/// ## What is checked, in this order
/// 1. The header's `alg` is `ES256` (``JWSVerificationError/Reason/badAlgorithm``).
/// 2. `x5c` holds the leaf and the intermediate (``JWSVerificationError/Reason/missingX5C``). Apple sends the root
///    third; it and anything after it are ignored: trust comes only from the configured roots, never from the token.
/// 3. Both are base64 DER certificates and the leaf's key is P-256 (``JWSVerificationError/Reason/badCertificate``);
///    the leaf carries extension 1.2.840.113635.100.6.11.1 and the intermediate 1.2.840.113635.100.6.2.1
///    (``JWSVerificationError/Reason/wrongOID``).
/// 4. swift-certificates' `Verifier`, with `RFC5280Policy` and ``AppleChainPolicy``, finds the path leaf →
///    intermediate → configured root (``JWSVerificationError/Reason/untrustedChain``).
/// 5. Every certificate on that path was valid at the payload's `signedDate`
///    (``JWSVerificationError/Reason/certificateNotValidAtSignedDate``). Not "now": leaves rotate, and an export
///    holds months of history.
/// 6. The 64-byte `r‖s` signature verifies over the signing input with the leaf's P-256 key
///    (``JWSVerificationError/Reason/badSignature``).
///
/// ## Cost: one path validation per distinct chain
/// Apple's root and intermediate sign with P-384 (about a thousand checks a second on one core); the leaf signs with
/// P-256 (more than ten times faster). Steps 3 and 4 depend only on the chain, so their outcome, refusals included, is
/// kept per distinct (leaf, intermediate) pair of `x5c` strings: a run validates each chain once
/// (``chainValidationCount`` counts them) and then pays one signature check per token.
///
/// Step 4 runs with the validity check of `RFC5280Policy` switched off (`RFC5280Policy.withValidityCheckDisabled()`,
/// swift-certificates' `DisableValidityCheck` SPI), and step 5 checks validity for every token against the path kept
/// from step 4. Validity periods are the only part of RFC 5280 path validation that depends on
/// the time, so the two steps together are path validation at `signedDate`. A cached chain therefore never lets
/// through a payload signed outside its validity, and no outcome depends on which payload met the chain first.
///
/// ## Nested tokens
/// `signedTransactionInfo` and `signedRenewalInfo` inside a verified notification need no second verification. The
/// notification's signature covers its payload byte for byte, nested tokens included, so a nested token cannot be
/// changed without the outer check failing; verifying it again proves what is already proven (Apple signed it, with
/// the same chain) at the price of one more P-256 check per nested token. It adds assurance only where a nested token
/// stands alone: kept and trusted later without its notification, or returned bare by the App Store Server API
/// (transaction history, subscription statuses). For those, ``verify(_:at:)`` works on any JWS: pass the nested
/// token with its own `signedDate`. Its chain is the notification's, so it costs a cache hit and one signature check.
///
/// ## Threads
/// A verifier is `Sendable`; share one between worker threads. A cache hit takes a lock only to fetch the entry with
/// the chain's hash (see ``SharedCache``).
/// A miss validates its chain while holding a second lock, so each chain is validated once even when several threads
/// meet it together; the others wait for that one validation. swift-certificates' `Verifier` is async: it runs on a
/// ``BlockingTaskExecutor``, so callers may block any thread, one of Swift's cooperative pool included, without
/// starving the work they wait for.
package final class JWSVerifier: Sendable {
    /// The certificates a chain must end in.
    package let trustRoots: [Certificate]
    /// How many distinct chains are kept; past it, the cache starts over and chains are validated again.
    package static let cacheCapacity = 1024

    private let rootStore: CertificateStore
    private let executor = BlockingTaskExecutor()
    private let verdicts = SharedCache<ChainKey, Result<TrustedChain, JWSVerificationError>>(capacity: cacheCapacity)
    /// Serializes chain validations and counts them.
    private let validations = Mutex<Int>(0)

    /// The trust roots as one text, each root's subject and serial number, in a fixed order: two verifiers with the
    /// same text trust the same roots.
    package var trustFingerprint: String {
        trustRoots.map { "\($0.subject)#\($0.serialNumber)" }.sorted().joined(separator: ";")
    }

    /// Creates a verifier that trusts `trustRoots` and nothing else.
    /// - Parameter trustRoots: root certificates, for example from ``trustRoots(parsing:from:)``. With none, every
    ///   token is refused as ``JWSVerificationError/Reason/untrustedChain``.
    package init(trustRoots: [Certificate]) {
        self.trustRoots = trustRoots
        self.rootStore = CertificateStore(trustRoots)
    }

    /// Creates a verifier that trusts Apple Root CA - G3, bundled with this module.
    /// - Throws: ``JWSVerificationError`` if the bundled certificate cannot be read (a broken build).
    package convenience init() throws(JWSVerificationError) {
        self.init(trustRoots: [try Self.appleRootCAG3()])
    }

    /// How many distinct chains this verifier has validated (cache misses), since it was made.
    package var chainValidationCount: Int {
        validations.withLock { $0 }
    }

    /// Verifies a JWS: algorithm, chain to a trust root at `signedDate`, and signature.
    /// - Parameters:
    ///   - jws: a parsed token; the payload need not be decoded, but the caller reads `signedDate` from it.
    ///   - signedDate: the payload's `signedDate`; every certificate on the chain must have been valid then.
    /// - Throws: ``JWSVerificationError`` with the first check that failed (see the type's documentation).
    package func verify(_ jws: JWS, at signedDate: Date) throws(JWSVerificationError) {
        guard jws.header.alg == "ES256" else {
            let found = jws.header.alg.map { "\"\($0)\"" } ?? "no alg"
            throw JWSVerificationError(.badAlgorithm, "the header has \(found); App Store tokens use \"ES256\"")
        }
        guard let x5c = jws.header.x5c else {
            throw JWSVerificationError(.missingX5C, "the header has no x5c field")
        }
        let publicKey = try validateChain(x5c: x5c, at: signedDate)
        guard jws.signature.count == 64 else {
            throw JWSVerificationError(
                .badSignature,
                "the signature is \(jws.signature.count) bytes; ES256 signatures are 64 bytes (r‖s)"
            )
        }
        let signature: P256.Signing.ECDSASignature
        do {
            signature = try P256.Signing.ECDSASignature(rawRepresentation: jws.signature)
        } catch {
            throw JWSVerificationError(
                .badSignature, "the signature is not a P-256 r‖s pair: \(JWSVerificationError.words(of: error))")
        }
        guard publicKey.isValidSignature(signature, for: jws.signingInputDigest()) else {
            throw JWSVerificationError(
                .badSignature,
                "the signature does not verify with the leaf certificate's key over the header and payload"
            )
        }
    }

    /// Validates an `x5c` chain at `signedDate` and returns the key its tokens must be signed with: steps 2 to 5 of
    /// the checks listed on the type, with the chain's outcome cached.
    /// - Parameters:
    ///   - x5c: the header's `x5c`: standard base64 DER, leaf first, then the intermediate; later entries are ignored.
    ///   - signedDate: the instant every certificate on the path must be valid at.
    /// - Returns: the leaf's P-256 public key.
    /// - Throws: ``JWSVerificationError`` (`missing_x5c`, `bad_certificate`, `wrong_oid`, `untrusted_chain`,
    ///   `certificate_not_valid_at_signed_date`).
    package func validateChain(x5c: [String], at signedDate: Date) throws(JWSVerificationError)
        -> P256.Signing.PublicKey
    {
        guard x5c.count >= 2 else {
            throw JWSVerificationError(
                .missingX5C,
                "x5c has \(x5c.count) certificate\(x5c.count == 1 ? "" : "s"); it needs the leaf and the intermediate"
            )
        }
        let chain = try verdict(for: ChainKey(leaf: x5c[0], intermediate: x5c[1])).get()
        try chain.check(signedDate: signedDate)
        return chain.publicKey
    }

    /// The cached outcome of validating a chain, validating it first if it is new.
    private func verdict(for key: ChainKey) -> Result<TrustedChain, JWSVerificationError> {
        let hash = key.hashValue
        if let cached = verdicts.value(hash: hash, isKey: { $0 == key }) {
            return cached
        }
        return validations.withLock { count in
            // Another thread may have validated this chain while this one waited for the lock.
            if let cached = verdicts.value(hash: hash, isKey: { $0 == key }) {
                return cached
            }
            count += 1
            let verdict = validate(key)
            verdicts.insert(verdict, for: key, hash: hash)
            return verdict
        }
    }

    /// Steps 3 and 4: parse both certificates, check the leaf's key and Apple's markers, find the path to a trust root.
    private func validate(_ key: ChainKey) -> Result<TrustedChain, JWSVerificationError> {
        do throws(JWSVerificationError) {
            let leaf = try Self.certificate(x5c: key.leaf, index: 0, role: "leaf")
            let intermediate = try Self.certificate(x5c: key.intermediate, index: 1, role: "intermediate")
            guard let publicKey = P256.Signing.PublicKey(leaf.publicKey) else {
                throw JWSVerificationError(
                    .badCertificate,
                    "the leaf certificate (\(leaf.subject)) has no P-256 key, which ES256 needs"
                )
            }
            if let missing = AppleChainPolicy.missingMarker(leaf: leaf, intermediate: intermediate) {
                throw JWSVerificationError(.wrongOID, missing)
            }
            let path = try findPath(leaf: leaf, intermediate: intermediate)
            return .success(TrustedChain(publicKey: publicKey, path: path))
        } catch {
            return .failure(error)
        }
    }

    /// Runs swift-certificates' path validation (RFC 5280 without the validity check, plus Apple's policy).
    private func findPath(leaf: Certificate, intermediate: Certificate) throws(JWSVerificationError) -> [Certificate] {
        let rootStore = self.rootStore
        let result = executor.run {
            var verifier = Verifier(rootCertificates: rootStore) {
                RFC5280Policy.withValidityCheckDisabled()
                AppleChainPolicy()
            }
            return await verifier.validate(leaf: leaf, intermediates: CertificateStore([intermediate]))
        }
        switch result {
        case .validCertificate(let chain):
            return Array(chain)
        case .couldNotValidate(let failures) where !failures.isEmpty:
            let reasons = failures.map(\.policyFailureReason.description).joined(separator: "; ")
            throw JWSVerificationError(
                .untrustedChain,
                "the path from the leaf (\(leaf.subject)) to a trust root breaks a rule: \(reasons)"
            )
        case .couldNotValidate, nil:
            let roots = trustRoots.map { "\($0.subject)" }.joined(separator: "; ")
            throw JWSVerificationError(
                .untrustedChain,
                "no path leads from the leaf (\(leaf.subject)) through the intermediate (\(intermediate.subject), "
                    + "issued by \(intermediate.issuer)) to a configured trust root (\(roots.isEmpty ? "none" : roots))"
            )
        }
    }

    /// Decodes one `x5c` entry: standard base64 of a DER certificate.
    private static func certificate(x5c entry: String, index: Int, role: String) throws(JWSVerificationError)
        -> Certificate
    {
        guard let der = Data(base64Encoded: entry) else {
            throw JWSVerificationError(.badCertificate, "x5c[\(index)] (the \(role)) is not standard base64")
        }
        do {
            return try Certificate(derEncoded: Array(der))
        } catch {
            throw JWSVerificationError(
                .badCertificate,
                "x5c[\(index)] (the \(role)) is not a DER X.509 certificate: \(JWSVerificationError.words(of: error))"
            )
        }
    }

    /// A chain as the header spells it: the leaf's and the intermediate's base64 text.
    ///
    /// Equality compares the whole texts (at once when both come from one cached header, which shares their
    /// storage); the hash takes their lengths and last bytes, the certificates' signatures, which tell chains apart
    /// without hashing 2 KB of text per token.
    private struct ChainKey: Hashable, Sendable {
        var leaf: String
        var intermediate: String

        func hash(into hasher: inout Hasher) {
            func combine(_ text: String) {
                hasher.combine(text.utf8.count)
                let combined: Void? = text.utf8.withContiguousStorageIfAvailable { bytes in
                    hasher.combine(bytes: UnsafeRawBufferPointer(UnsafeBufferPointer(rebasing: bytes.suffix(64))))
                }
                if combined == nil { hasher.combine(text) }
            }
            combine(leaf)
            combine(intermediate)
        }
    }
}
