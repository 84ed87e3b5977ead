/// A row that cannot be stored, with its reason.
package struct RowRejection: Error {
    package var reason: Rejection.Reason
    package var detail: String

    init(_ reason: Rejection.Reason, _ detail: String) {
        self.reason = reason
        self.detail = detail
    }
}
