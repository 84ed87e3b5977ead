import AppStoreNotifications
import Dispatch
import Foundation
import Synchronization
import TestPKI
import Testing

@Suite struct ChainCacheTests {
    private static let lifecycle = [
        "01_DID_FAIL_TO_RENEW_GRACE_PERIOD", "02_GRACE_PERIOD_EXPIRED", "03_DID_RENEW_BILLING_RECOVERY",
        "04_DID_FAIL_TO_RENEW", "05_EXPIRED_BILLING_RETRY",
    ]

    @Test func eachDistinctChainIsValidatedOnce() throws {
        let verifier = try Fixture.appleTestVerifier()
        // testNotification and transactionInfo share one chain; renewalInfo and the billing lifecycle another.
        var tokens = try ["testNotification", "transactionInfo", "renewalInfo"].map {
            try Fixture.jws("apple-mock-signed/\($0)")
        }
        for name in Self.lifecycle {
            let notification = try Fixture.jws("billing-lifecycle/\(name).jws")
            tokens.append(notification)
            tokens += try Fixture.nestedTokens(of: notification).map { try JWS.parse($0) }
        }
        #expect(tokens.count == 18)

        for jws in tokens + tokens {
            try verifier.verify(jws, at: try Fixture.signedDate(of: jws))
        }

        #expect(verifier.chainValidationCount == 2)
    }

    @Test func refusedChainsAreRememberedToo() throws {
        let verifier = try Fixture.appleTestVerifier()
        let signer = try Fixture.appleTestSigner(leaf: "apple-test-pki/testInvalidOIDLeaf.pem")
        let signedDate = try Fixture.date(2024, 1, 1)
        let jws = try JWS.parse(try signer.sign(Fixture.payload(signedAt: signedDate)))

        for _ in 0..<3 {
            #expect(throws: JWSVerificationError.self) { try verifier.verify(jws, at: signedDate) }
        }

        #expect(verifier.chainValidationCount == 1)
    }

    @Test func threadsVerifyingTogetherShareOneValidation() throws {
        let verifier = try Fixture.appleTestVerifier()
        let tokens = try Self.lifecycle.map { try Fixture.jws("billing-lifecycle/\($0).jws") }
        let dates = try tokens.map { try Fixture.signedDate(of: $0) }
        let failures = Mutex<[String]>([])

        DispatchQueue.concurrentPerform(iterations: 20) { iteration in
            let index = iteration % tokens.count
            do {
                try verifier.verify(tokens[index], at: dates[index])
            } catch {
                failures.withLock { $0.append("\(error)") }
            }
        }

        #expect(failures.withLock { $0 } == [])
        #expect(verifier.chainValidationCount == 1)
    }

    @Test func tasksBlockingOnTheCooperativePoolDoNotDeadlock() async throws {
        // More tasks than the pool has threads, each blocking its thread inside verify while the one chain
        // validation runs: that validation must not need a thread of the pool.
        let verifier = try Fixture.appleTestVerifier()
        let tokens = try Self.lifecycle.map { try Fixture.jws("billing-lifecycle/\($0).jws") }
        let dates = try tokens.map { try Fixture.signedDate(of: $0) }

        let verified = try await withThrowingTaskGroup(of: Int.self) { group in
            for index in 0..<(tokens.count * 2) {
                group.addTask {
                    try verifier.verify(tokens[index % tokens.count], at: dates[index % tokens.count])
                    return 1
                }
            }
            return try await group.reduce(0, +)
        }

        #expect(verified == 10)
        #expect(verifier.chainValidationCount == 1)
    }
}
