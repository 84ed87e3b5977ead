/// A row that cannot be stored, with its reason.
struct RowRejection: Error {
    var reason: Rejection.Reason
    var detail: String

    init(_ reason: Rejection.Reason, _ detail: String) {
        self.reason = reason
        self.detail = detail
    }
}
