import AppStoreNotifications
import Foundation
import TestPKI
import Testing

@Suite struct TrustRootLoadingTests {
    @Test func derAndPEMOfTheSameRootAgree() throws {
        let der = try JWSVerifier.trustRoots(parsing: Fixture.bytes("apple-test-pki/testCA.der"), from: "testCA.der")
        let pem = try JWSVerifier.trustRoots(parsing: Fixture.bytes("apple-test-pki/testCA.pem"), from: "testCA.pem")

        #expect(der.count == 1)
        #expect(der == pem)
    }

    @Test func pemBundleYieldsEveryCertificateAndSkipsOtherBlocks() throws {
        let authority = try TestCertificateAuthority()
        let bundle =
            "\n  " + (try Fixture.text("apple-test-pki/testCA.pem")) + "\n"
            + (try Fixture.text("apple-test-pki/testLeaf.key")) + "\n" + (try authority.rootPEM()) + "\n"

        let roots = try JWSVerifier.trustRoots(parsing: Array(bundle.utf8), from: "bundle.pem")

        #expect(roots == [try Fixture.certificate("apple-test-pki/testCA.der"), authority.root])
    }

    @Test func rootsExportedByTheTestAuthorityLoadBack() throws {
        let authority = try TestCertificateAuthority()

        #expect(try JWSVerifier.trustRoots(parsing: authority.rootDER(), from: "root.der") == [authority.root])
        let pem = Array(try authority.rootPEM().utf8)
        #expect(try JWSVerifier.trustRoots(parsing: pem, from: "root.pem") == [authority.root])
    }

    @Test(
        arguments: [
            ("garbage.der", Array("hello".utf8)),
            ("empty.der", []),
            ("key-only.pem", Array("-----BEGIN EC PRIVATE KEY-----\nAAAA\n-----END EC PRIVATE KEY-----\n".utf8)),
            ("broken.pem", Array("-----BEGIN CERTIFICATE-----\n!!!!\n-----END CERTIFICATE-----\n".utf8)),
        ] as [(String, [UInt8])])
    func unreadableTrustRootIsRefusedWithItsName(name: String, contents: [UInt8]) throws {
        let error = try #require(throws: JWSVerificationError.self) {
            try JWSVerifier.trustRoots(parsing: contents, from: name)
        }
        #expect(error.reason == .badCertificate)
        #expect(error.detail.contains(name))
    }
}
