extension StringProtocol {
    /// Whether both strings hold the same UTF-8 bytes.
    ///
    /// Security-relevant values (`state`, `nonce`, issuer, audience, `kid`) compare this way:
    /// `==` applies Unicode canonical equivalence, so "\u{212A}1" (Kelvin sign) would equal "K1".
    func hasSameBytes(as other: some StringProtocol) -> Bool { utf8.elementsEqual(other.utf8) }
}
