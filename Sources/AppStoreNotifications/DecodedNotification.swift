import Foundation

/// A signed notification split into its tokens and decoded, with one JSON document for storage.
///
/// - Important: Nothing here is verified. Parsing and decoding prove nothing about who signed the tokens; verify
///   `jws` and the nested tokens before trusting any value.
package struct DecodedNotification: Sendable {
    /// The outer token (`signedPayload`).
    package let jws: JWS
    /// The decoded notification payload; its `data.signedTransactionInfo` and `data.signedRenewalInfo` still hold
    /// the nested tokens as text.
    package let payload: ResponseBodyV2DecodedPayload
    /// The decoded `data.signedTransactionInfo`, when present.
    package let transaction: JWSTransactionDecodedPayload?
    /// The nested transaction token, when present.
    package let transactionJWS: JWS?
    /// The decoded `data.signedRenewalInfo`, when present.
    package let renewalInfo: JWSRenewalInfoDecodedPayload?
    /// The nested renewal info token, when present.
    package let renewalInfoJWS: JWS?
    /// The decoded `appData.signedAppTransactionInfo`, when present.
    package let appTransaction: AppTransaction?
    /// The nested app transaction token, when present.
    package let appTransactionJWS: JWS?
    /// The outer payload's JSON text with each nested token's string replaced, in place, by that token's decoded
    /// JSON object: strict UTF-8 JSON holding every field Apple sent, modelled or not, ready for a `jsonb` column.
    /// The members of its objects (down to those of the payloads' top-level members) come in the order `jsonb`
    /// keeps them, which saves the server sorting them (see `StorageDocument`); the text is otherwise Apple's.
    package let document: Data
}
