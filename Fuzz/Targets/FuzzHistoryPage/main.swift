import AppStoreNotifications
import AppStoreServerAPI
import Foundation
import FuzzSupport

exit(runFuzzer(fuzzHistoryPage))

/// A Get Notification History answer's body as `churn fetch` reads it (`AppStoreServerAPIClient.decodePage`), from
/// arbitrary bytes, against Foundation's lenient `JSONSerialization`.
///
/// The properties, each a crash (and the input kept) when broken:
/// - a page the reader accepts is a JSON object for `JSONSerialization` too, with a `notificationHistory` array of
///   as many items, each item's `signedPayload` the same string (or absent or `null` in both), `hasMore` the same
///   boolean, and `paginationToken` the same string (or absent or `null`), never empty while `hasMore` is true;
/// - the same body read again gives the same answer (a page, or the same reason).
func fuzzHistoryPage(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let body = Array(UnsafeBufferPointer(start: start, count: count))
    let first = AppStoreServerAPIClient.decodePage(body)
    switch (first, AppStoreServerAPIClient.decodePage(body)) {
    case (.value(let page), .value(let again)):
        precondition(Page(page) == Page(again), "the same body read twice gives two pages")
        check(page, against: body)
    case (.malformed(let reason), .malformed(let again)):
        precondition(reason == again, "the same body refused in other words: \(reason) / \(again)")
    default:
        preconditionFailure("the same body read twice is a page once and refused once")
    }
    return 0
}

/// What a page says, to compare.
struct Page: Equatable {
    var payloads: [String?]
    var hasMore: Bool?
    var paginationToken: String?

    init(_ response: NotificationHistoryResponse) {
        payloads = (response.notificationHistory ?? []).map(\.signedPayload)
        hasMore = response.hasMore
        paginationToken = response.paginationToken
    }
}

/// A member's value, nil for JSON's `null` as for an absent member (as `JSONDecoder` reads an optional).
func present(_ value: Any?) -> Any? {
    value is NSNull ? nil : value
}

func check(_ page: NotificationHistoryResponse, against body: [UInt8]) {
    let read = Page(page)
    guard let object = try? JSONSerialization.jsonObject(with: Data(body), options: [.fragmentsAllowed]),
        let dictionary = object as? [String: Any]
    else {
        preconditionFailure("an accepted page is no JSON object for JSONSerialization")
    }
    let items = dictionary["notificationHistory"] as? [Any]
    precondition(items?.count == read.payloads.count, "notificationHistory's count")
    for (index, item) in (items ?? []).enumerated() {
        let payload = present((item as? [String: Any])?["signedPayload"])
        precondition(
            (payload as? String) == read.payloads[index] && (payload == nil || payload is String),
            "item \(index)'s signedPayload")
    }
    precondition(read.hasMore != nil, "an accepted page without hasMore")
    precondition((dictionary["hasMore"] as? NSNumber)?.boolValue == read.hasMore, "hasMore")
    let token = present(dictionary["paginationToken"])
    precondition(
        (token as? String) == read.paginationToken && (token == nil || token is String), "paginationToken")
    if read.hasMore == true {
        precondition(!(read.paginationToken ?? "").isEmpty, "more pages follow without a token to ask for them")
    }
}
