import Analysis

/// The simulated app's subscription products and storefronts, with prices in milliunits of each storefront's
/// currency (9990 = 9.99), as the App Store reports them, and how each fails and recovers compared with the base
/// rates (the simulator's own assumptions, see ``RateMultipliers``).
package enum Catalog {
    /// How long one paid period of a product lasts.
    package enum Period: String, Hashable, Sendable {
        case week, month, year

        /// The end of a period that starts at `millis`: 7 days, or the same day one month or one year later.
        package func end(startingAt millis: Int64) -> Int64 {
            switch self {
            case .week: return millis + 7 * Milliseconds.day
            case .month: return UTCCalendar.adding(months: 1, to: millis)
            case .year: return UTCCalendar.adding(months: 12, to: millis)
            }
        }

        /// The period's length in months, for turning a monthly rate into a per-period one.
        package var months: Double {
            switch self {
            case .week: return 12.0 / 52.0
            case .month: return 1
            case .year: return 12
            }
        }
    }

    /// An auto-renewable subscription of the app's one subscription group.
    package struct Product: Hashable, Sendable {
        package let productId: String
        package let period: Period
        /// How often new subscribers choose it, relative to the others.
        package let weight: Double
        /// The introductory free trial: its length in days and its ISO 8601 `offerPeriod`.
        package let trialDays: Int
        package let trialOfferPeriod: String
        /// Milliunits per ISO 4217 currency code.
        package let prices: [String: Int64]
        /// How its renewals fail and recover compared with the base rates.
        package let rates: RateMultipliers

        /// The price in `currency`; every product is priced in every storefront's currency.
        package func price(in currency: String) -> Int64 {
            prices[currency] ?? 0
        }
    }

    /// An App Store storefront: ISO 3166 alpha-3 code, Apple's numeric id, its currency.
    package struct Storefront: Hashable, Sendable {
        package let code: String
        package let id: String
        package let currency: String
        /// How often subscribers come from it, relative to the others.
        package let weight: Double
        /// How its renewals fail and recover compared with the base rates.
        package let rates: RateMultipliers
    }

    /// The first charge after a free trial: the payment method has never been charged, so it fails twice as often,
    /// and a customer who never paid recovers half as often.
    package static let firstChargeAfterTrial = RateMultipliers(failure: 2, recovery: 0.5)

    package static let subscriptionGroupIdentifier = "21482736"

    package static let products: [Product] = [
        Product(
            productId: "pro.weekly", period: .week, weight: 0.25, trialDays: 3, trialOfferPeriod: "P3D",
            prices: [
                "USD": 2990, "GBP": 2990, "EUR": 3490, "JPY": 450_000, "CAD": 3990, "AUD": 4490, "BRL": 14_900,
            ],
            // Small charges every week: more often on an empty balance, and a lapse matters less to the customer.
            rates: RateMultipliers(failure: 1.25, recovery: 0.75)
        ),
        Product(
            productId: "pro.monthly", period: .month, weight: 0.55, trialDays: 7, trialOfferPeriod: "P1W",
            prices: [
                "USD": 9990, "GBP": 9990, "EUR": 10_990, "JPY": 1_500_000, "CAD": 13_990, "AUD": 15_990,
                "BRL": 54_900,
            ],
            rates: .one
        ),
        Product(
            productId: "pro.annual", period: .year, weight: 0.20, trialDays: 14, trialOfferPeriod: "P2W",
            prices: [
                "USD": 59_990, "GBP": 54_990, "EUR": 64_990, "JPY": 9_000_000, "CAD": 79_990, "AUD": 89_990,
                "BRL": 299_900,
            ],
            // A year for the card to expire or be replaced; customers who paid for a year come back for it more.
            rates: RateMultipliers(failure: 1.5, recovery: 1.2)
        ),
    ]

    package static let storefronts: [Storefront] = [
        Storefront(code: "USA", id: "143441", currency: "USD", weight: 0.40, rates: .one),
        Storefront(
            code: "GBR", id: "143444", currency: "GBP", weight: 0.08,
            rates: RateMultipliers(failure: 0.9, recovery: 1.05)
        ),
        Storefront(
            code: "DEU", id: "143443", currency: "EUR", weight: 0.10,
            rates: RateMultipliers(failure: 0.8, recovery: 1.1)
        ),
        Storefront(
            code: "FRA", id: "143442", currency: "EUR", weight: 0.07,
            rates: RateMultipliers(failure: 0.9, recovery: 1)
        ),
        Storefront(
            code: "ITA", id: "143450", currency: "EUR", weight: 0.04,
            rates: RateMultipliers(failure: 1.1, recovery: 0.9)
        ),
        Storefront(
            code: "ESP", id: "143454", currency: "EUR", weight: 0.04,
            rates: RateMultipliers(failure: 1.1, recovery: 0.9)
        ),
        Storefront(
            code: "JPN", id: "143462", currency: "JPY", weight: 0.08,
            rates: RateMultipliers(failure: 0.7, recovery: 1.1)
        ),
        Storefront(code: "CAN", id: "143455", currency: "CAD", weight: 0.06, rates: .one),
        Storefront(
            code: "AUS", id: "143460", currency: "AUD", weight: 0.05,
            rates: RateMultipliers(failure: 0.9, recovery: 1.05)
        ),
        Storefront(
            code: "BRA", id: "143503", currency: "BRL", weight: 0.08,
            rates: RateMultipliers(failure: 1.8, recovery: 0.7)
        ),
    ]
}
