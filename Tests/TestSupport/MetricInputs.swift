import Analysis

// Builders of the analyzers' inputs, for the analysis and report tests; their times are `T`'s.

/// A notification of subscription `S1` in Production, bought by the account holder, unless told otherwise.
package func event(
    _ uuid: String,
    _ type: String,
    _ subtype: String? = nil,
    at signedDate: Int64,
    subscription: String? = "S1",
    environment: String? = "Production",
    expires: Int64? = nil,
    purchase: Int64? = nil,
    grace: Int64? = nil,
    product: String? = "monthly",
    storefront: String? = "USA",
    price: Int64? = nil,
    currency: String? = nil,
    ownership: String? = "PURCHASED",
    offerType: Int32? = nil,
    offerDiscountType: String? = nil,
    bundle: String? = nil,
    renewalPrice: Int64? = nil,
    renewalCurrency: String? = nil,
    billingPlanType: String? = nil,
    installment: Int32? = nil,
    installments: Int32? = nil
) -> NotificationEvent {
    NotificationEvent(
        notificationUUID: uuid,
        notificationType: type,
        subtype: subtype,
        signedDate: signedDate,
        environment: environment,
        bundleId: bundle,
        originalTransactionId: subscription,
        transactionId: subscription.map { $0 + "-tx" },
        productId: product,
        storefront: storefront,
        purchaseDate: purchase,
        expiresDate: expires,
        price: price,
        currency: currency,
        inAppOwnershipType: ownership,
        offerType: offerType,
        offerDiscountType: offerDiscountType,
        gracePeriodExpiresDate: grace,
        renewalPrice: renewalPrice,
        renewalCurrency: renewalCurrency,
        billingPlanType: billingPlanType,
        commitmentBillingPeriodNumber: installment,
        commitmentTotalBillingPeriods: installments
    )
}

/// A closed or open episode for metric tests: only what the metrics read is set.
package func episode(
    _ id: String,
    start: Int64,
    _ outcome: Episode.Outcome,
    after duration: Int64? = nil,
    product: String? = "monthly",
    grace: Int64?? = nil,
    price: Int64? = nil,
    currency: String? = nil,
    stake: Int64? = nil,
    stakeCurrency: String? = nil,
    plan: Episode.BillingPlan = .standard,
    installmentsAtRisk: Int = 1
) -> Episode {
    // `grace`: nil = no grace period; .some(nil) = grace period with unknown end; .some(x) = grace end x.
    // `price`/`currency`: the recovering transaction's; `stake`/`stakeCurrency`: the price at stake.
    Episode(
        subscription: id,
        productId: product,
        start: start,
        hasGrace: grace != nil,
        graceEnd: grace ?? nil,
        end: outcome == .open ? nil : start + (duration ?? 0),
        outcome: outcome,
        recoveryPrice: price,
        recoveryCurrency: currency,
        stakePrice: stake,
        stakeCurrency: stakeCurrency,
        openingNotificationUUID: id + "-open",
        closingNotificationUUID: outcome == .open ? nil : id + "-close",
        billingPlan: plan,
        installmentsAtRisk: installmentsAtRisk
    )
}
