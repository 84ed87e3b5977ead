import SwiftASN1
import X509

extension JWSVerifier {
    /// SHA-256 of the bundled Apple Root CA - G3 (DER), as Apple publishes it, lowercase hex.
    package static let appleRootCAG3SHA256 = "63343abfb89a6a03ebb57e9b3f5fa7be7c4f5c756f3017b3a8c488c3653e9179"

    /// Apple Root CA - G3 (DER), the root of every App Store signing chain; embedded in the module at build time.
    package static var appleRootCAG3DER: [UInt8] {
        PackageResources.AppleRootCA_G3_der
    }

    /// The bundled Apple Root CA - G3, parsed.
    /// - Throws: ``JWSVerificationError/Reason/badCertificate`` if the bundled bytes are not a certificate.
    package static func appleRootCAG3() throws(JWSVerificationError) -> Certificate {
        let roots = try trustRoots(parsing: appleRootCAG3DER, from: "the bundled Apple Root CA - G3")
        guard let root = roots.first else {
            throw JWSVerificationError(.badCertificate, "the bundled Apple Root CA - G3 holds no certificate")
        }
        return root
    }

    /// Reads trust roots from a file's contents: one DER certificate, or PEM with one or more `CERTIFICATE` blocks.
    ///
    /// A DER certificate starts with the byte 0x30 (an ASN.1 SEQUENCE); anything else is read as PEM text, where
    /// text around the blocks (such as `openssl x509 -text` output) and other blocks (keys, CRLs) are skipped.
    /// - Parameters:
    ///   - contents: the file's bytes.
    ///   - source: the file's name, for messages.
    /// - Returns: the certificates, at least one.
    /// - Throws: ``JWSVerificationError/Reason/badCertificate`` naming `source` when no certificate can be read.
    package static func trustRoots(parsing contents: [UInt8], from source: String) throws(JWSVerificationError)
        -> [Certificate]
    {
        if contents.first == 0x30 {
            do {
                return [try Certificate(derEncoded: contents)]
            } catch {
                throw JWSVerificationError(
                    .badCertificate,
                    "trust root \(source) is not a DER X.509 certificate: \(JWSVerificationError.words(of: error))"
                )
            }
        }
        let certificates: [Certificate]
        do {
            certificates = try PEMDocument.parseMultiple(pemString: String(decoding: contents, as: UTF8.self))
                .filter { $0.discriminator == Certificate.defaultPEMDiscriminator }
                .map { try Certificate(pemDocument: $0) }
        } catch {
            throw JWSVerificationError(.badCertificate, "trust root \(source) is not readable PEM: \(error)")
        }
        guard !certificates.isEmpty else {
            throw JWSVerificationError(
                .badCertificate,
                "trust root \(source) is neither DER nor PEM with a CERTIFICATE block"
            )
        }
        return certificates
    }
}
