import CIdentityFlowCrypto
import Foundation

/// What a device-mode profile keeps on the device (`docs/device-authenticators.md`): the
/// provider's tokens sealed under a random vault key, and that key wrapped under the PIN key
/// (PBKDF2 of the PIN, then HKDF with the device secret), under the biometric key when biometrics
/// are registered, and under the resume key while a session may survive a launch. A session
/// without the PIN key rotates it by wrapping the new key for the PIN slot (``pinSlotKey``,
/// ``rotatedWithoutPin(tokens:biometrics:resume:deviceSecret:profile:recordedGeneration:)``).
///
/// Nothing in it opens without one of those keys. Its ``binding`` (an HMAC under the device
/// secret over everything else, the failure count included) tells a corrupt, truncated or
/// foreign vault, found at launch, from a wrong PIN.
struct DeviceVault: Sendable, Hashable, Decodable {
    /// The PBKDF2 salt of the PIN key.
    var salt: [UInt8]
    /// The PBKDF2 iterations of the PIN key.
    var iterations: Int
    /// Wrong PINs in a row, counted before each check; bound by ``binding``.
    var failureCount: Int
    /// The vault key sealed under the PIN key; empty while ``pinSlotWrap`` holds it instead.
    var pinWrap: [UInt8]
    /// The PIN slot's public key: a P-256 key derived from the PIN key, so that a session without
    /// the PIN (a biometric or resumed one) can wrap a new vault key that only the PIN opens;
    /// `nil` in a vault written before the slot (it gets one at its next PIN login).
    var pinSlotKey: [UInt8]?
    /// The vault key wrapped for the PIN slot by a session without the PIN key: an ephemeral
    /// public key (65 bytes), then the key sealed under the ECDH secret of that key and
    /// ``pinSlotKey``. Replaces ``pinWrap`` until the next PIN change.
    var pinSlotWrap: [UInt8]?
    /// The vault key sealed under the biometric key, when biometrics are registered.
    var biometricWrap: [UInt8]?
    /// The vault key sealed under the resume key, while the last session may survive a launch.
    var resumeWrap: [UInt8]?
    /// The token set, sealed under the vault key.
    var sealedTokens: [UInt8]
    /// HMAC-SHA256 under the device secret over the fields above (the failure count included).
    var binding: [UInt8]
    /// The hardware key mixed into the PIN key, where the device has one (``HardwareKey``).
    var hardware: HardwareBinding?
    /// How many times this vault was rotated; bound by ``binding``, and `nil` for a vault never
    /// rotated since generations were kept. The device records the last generation it wrote in an
    /// item of its own (``ProfileStore/vaultGeneration(for:)``): a vault older than that is an old
    /// profile item written back, damage (``DeviceAuthenticators/usableVault(of:)``).
    var generation: Int?
    /// The profile's DPoP key (its ``StoredDPoPKey``), sealed under the vault key; bound by
    /// ``binding`` when present. `nil` in a vault written before issue 40 or without DPoP.
    var sealedDPoPKey: [UInt8]?

    static let keyLength = 32

    /// A new vault for `tokens`, opened by `pin`; with `hardwareKey`, its PIN key also needs that
    /// device's hardware.
    /// - Returns: The vault and its key (the session keeps the key while it lasts).
    static func create(
        pin: Redacted<String>, tokens: TokenSet, iterations: Int, deviceSecret: Redacted<[UInt8]>, hardwareKey: (any HardwareKey)?,
        profile: UserProfile
    ) throws(IdentityFlowError) -> (DeviceVault, Redacted<[UInt8]>) {
        let key = Redacted(try PinProof.randomBytes(keyLength))
        var vault = DeviceVault(salt: [], iterations: iterations, failureCount: 0, pinWrap: [], sealedTokens: [], binding: [])
        var pinSecret = deviceSecret
        if let hardwareKey {
            let binding = try hardwareKey.newBinding(for: profile)
            pinSecret = try vault.bindHardware(binding, secret: try hardwareKey.secret(for: binding), deviceSecret: deviceSecret)
        }
        try vault.wrap(key, underPin: pin, pinSecret: pinSecret, deviceSecret: deviceSecret, profile: profile)
        try vault.seal(tokens, key: key, deviceSecret: deviceSecret, profile: profile)
        return (vault, key)
    }

    // MARK: - Opening

    /// The vault key, when `pin` is the PIN; `nil` for a wrong PIN.
    /// - Parameter pinSecret: The device secret, followed by the hardware key's secret when the
    ///   vault is bound to one (``pinSecret(deviceSecret:hardwareSecret:)``).
    func key(pin: Redacted<String>, pinSecret: Redacted<[UInt8]>, profile: UserProfile) throws(IdentityFlowError) -> Redacted<[UInt8]>? {
        try openWithPin(pin, pinSecret: pinSecret, profile: profile)?.key
    }

    /// The vault key when `pin` is the PIN, with the PIN slot's public key it derives (a vault
    /// without one stores it at the login); `nil` for a wrong PIN. The key is in ``pinSlotWrap``
    /// when a session without the PIN rotated the vault, else in ``pinWrap``.
    func openWithPin(_ pin: Redacted<String>, pinSecret: Redacted<[UInt8]>, profile: UserProfile) throws(IdentityFlowError)
        -> (key: Redacted<[UInt8]>, slotKey: [UInt8])?
    {
        let pinKey = try Self.pinKey(pin: pin, salt: salt, iterations: iterations, deviceSecret: pinSecret, profile: profile)
        let slot = Self.slotKey(pinKey: pinKey, profile: profile)
        guard let pinSlotWrap else {
            return SealedBox.open(pinWrap, key: pinKey, associatedData: Self.associatedData("pin", profile)).map { (Redacted($0), slot.publicKey) }
        }
        let ephemeral = Array(pinSlotWrap.prefix(65))
        guard let secret = Self.slotSecret(ephemeral: ephemeral, slotKey: slot.publicKey, multiplying: ephemeral, by: slot.privateKey, profile: profile)
        else { return nil }
        return SealedBox.open(Array(pinSlotWrap.dropFirst(65)), key: secret, associatedData: Self.associatedData("pin-slot", profile)).map {
            (Redacted($0), slot.publicKey)
        }
    }

    /// The vault key from a key that wraps it (biometric or resume); `nil` when it does not.
    func key(unwrapping wrap: [UInt8]?, with wrappingKey: Redacted<[UInt8]>, purpose: String, profile: UserProfile) -> Redacted<[UInt8]>? {
        wrap.flatMap { SealedBox.open($0, key: wrappingKey, associatedData: Self.associatedData(purpose, profile)) }.map(Redacted.init)
    }

    /// The sealed token set.
    /// - Throws: ``ErrorCode/sealedDataInvalid`` when the key does not open it or it is not a token set.
    func tokens(key: Redacted<[UInt8]>, profile: UserProfile) throws(IdentityFlowError) -> TokenSet {
        guard let plaintext = SealedBox.open(sealedTokens, key: key, associatedData: Self.associatedData("tokens", profile)),
            let tokens = try? JSONDecoder().decode(TokenSet.self, from: Data(plaintext))
        else { throw Self.damaged(profile, "its sealed tokens do not open with the vault key") }
        return tokens
    }

    // MARK: - Changing

    /// Wraps the vault key under a new PIN (fresh salt), counters reset.
    mutating func wrap(
        _ key: Redacted<[UInt8]>, underPin pin: Redacted<String>, pinSecret: Redacted<[UInt8]>, deviceSecret: Redacted<[UInt8]>,
        profile: UserProfile
    ) throws(IdentityFlowError) {
        let newSalt = try PinProof.randomBytes(16)
        let pinKey = try Self.pinKey(pin: pin, salt: newSalt, iterations: iterations, deviceSecret: pinSecret, profile: profile)
        salt = newSalt
        failureCount = 0
        pinWrap = try SealedBox.seal(key.value, key: pinKey, associatedData: Self.associatedData("pin", profile))
        pinSlotKey = Self.slotKey(pinKey: pinKey, profile: profile).publicKey
        pinSlotWrap = nil
        bind(deviceSecret: deviceSecret, profile: profile)
    }

    /// This vault drawn anew by a session without the PIN key (biometric removal, the end of a
    /// resumable session): a new vault key seals `tokens` and is wrapped for the PIN slot (ECDH
    /// with a fresh ephemeral key), under a new biometric key when `biometrics` and under a new
    /// resume key when `resume`; the device secret, salt and PIN stay. What opened the old vault
    /// (its key, its biometric or resume key) opens nothing of the new one.
    /// - Returns: `nil` for a vault without a PIN slot (written before it: rotated from its next
    ///   PIN login on); else the vault, its key, and the new biometric and resume keys to store.
    func rotatedWithoutPin(
        tokens: TokenSet, previousKey: Redacted<[UInt8]>, biometrics: Bool, resume: Bool, deviceSecret: Redacted<[UInt8]>, profile: UserProfile,
        recordedGeneration: Int?
    ) throws(IdentityFlowError) -> (vault: DeviceVault, key: Redacted<[UInt8]>, biometricKey: Redacted<[UInt8]>?, resumeKey: Redacted<[UInt8]>?)? {
        guard let pinSlotKey else { return nil }
        let key = Redacted(try PinProof.randomBytes(Self.keyLength))
        let ephemeral = try DeviceKey.random()
        guard
            let secret = Self.slotSecret(
                ephemeral: ephemeral.publicKey, slotKey: pinSlotKey, multiplying: pinSlotKey, by: ephemeral.privateKey, profile: profile)
        else { throw Self.damaged(profile, "its PIN slot key is not a P-256 point") }
        var vault = self
        vault.generation = max(generation ?? 0, recordedGeneration ?? 0) + 1
        vault.failureCount = 0
        vault.pinWrap = []
        vault.pinSlotWrap = ephemeral.publicKey + (try SealedBox.seal(key.value, key: secret, associatedData: Self.associatedData("pin-slot", profile)))
        var biometricKey: Redacted<[UInt8]>?, resumeKey: Redacted<[UInt8]>?
        vault.biometricWrap = nil
        vault.resumeWrap = nil
        if biometrics {
            let drawn = Redacted(try PinProof.randomBytes(Self.keyLength))
            vault.biometricWrap = try Self.wrap(key, with: drawn, purpose: "biometric", profile: profile)
            biometricKey = drawn
        }
        if resume {
            let drawn = Redacted(try PinProof.randomBytes(Self.keyLength))
            vault.resumeWrap = try Self.wrap(key, with: drawn, purpose: "resume", profile: profile)
            resumeKey = drawn
        }
        // The DPoP key stays the same (the provider bound the tokens to it): resealed, not drawn anew.
        try vault.resealDPoPKey(from: previousKey, to: key, profile: profile)
        try vault.seal(tokens, key: key, deviceSecret: deviceSecret, profile: profile)
        return (vault, key, biometricKey, resumeKey)
    }

    /// This vault drawn anew for a PIN change: a new vault key seals `tokens` and is wrapped under
    /// the new PIN (fresh salt, the new device secret in `pinSecret` and `deviceSecret`) and, when
    /// biometrics are registered, under a new biometric key; the resume wrap is dropped (the
    /// session writes its own); the hardware binding is kept. What opened the old vault (its key,
    /// its PIN wrap, its biometric or resume key) opens nothing of the new one. Its ``generation``
    /// is one past this vault's and `recordedGeneration` (the one the device recorded).
    /// - Returns: The vault, its key, and the new biometric key to store when biometrics are registered.
    func rotated(
        pin: Redacted<String>, tokens: TokenSet, previousKey: Redacted<[UInt8]>, pinSecret: Redacted<[UInt8]>, deviceSecret: Redacted<[UInt8]>,
        profile: UserProfile, recordedGeneration: Int?
    ) throws(IdentityFlowError) -> (vault: DeviceVault, key: Redacted<[UInt8]>, biometricKey: Redacted<[UInt8]>?) {
        let key = Redacted(try PinProof.randomBytes(Self.keyLength))
        var vault = self
        vault.resumeWrap = nil
        vault.generation = max(generation ?? 0, recordedGeneration ?? 0) + 1
        var biometricKey: Redacted<[UInt8]>?
        if biometricWrap != nil {
            let drawn = Redacted(try PinProof.randomBytes(Self.keyLength))
            vault.biometricWrap = try Self.wrap(key, with: drawn, purpose: "biometric", profile: profile)
            biometricKey = drawn
        }
        try vault.resealDPoPKey(from: previousKey, to: key, profile: profile)
        try vault.wrap(key, underPin: pin, pinSecret: pinSecret, deviceSecret: deviceSecret, profile: profile)
        try vault.seal(tokens, key: key, deviceSecret: deviceSecret, profile: profile)
        return (vault, key, biometricKey)
    }

    /// Wraps the vault key under `wrappingKey` for `purpose` ("biometric" or "resume").
    static func wrap(_ key: Redacted<[UInt8]>, with wrappingKey: Redacted<[UInt8]>, purpose: String, profile: UserProfile) throws(IdentityFlowError) -> [UInt8]
    {
        try SealedBox.seal(key.value, key: wrappingKey, associatedData: associatedData(purpose, profile))
    }

    /// Seals a new token set.
    mutating func seal(_ tokens: TokenSet, key: Redacted<[UInt8]>, deviceSecret: Redacted<[UInt8]>, profile: UserProfile) throws(IdentityFlowError) {
        let plaintext: Data
        do { plaintext = try JSONEncoder().encode(tokens) } catch {
            throw IdentityFlowError(.dataStorageNotAvailable, "The token set could not be encoded for sealing.", underlying: error)
        }
        sealedTokens = try SealedBox.seal(Array(plaintext), key: key, associatedData: Self.associatedData("tokens", profile))
        bind(deviceSecret: deviceSecret, profile: profile)
    }

    // MARK: - The hardware key

    /// Records the hardware key this vault's PIN key needs, and a check value of its secret (which
    /// tells another device's hardware from a wrong PIN).
    /// - Returns: The secret the PIN key is derived with.
    mutating func bindHardware(_ binding: HardwareBinding, secret: Redacted<[UInt8]>, deviceSecret: Redacted<[UInt8]>) throws(IdentityFlowError)
        -> Redacted<[UInt8]>
    {
        var bound = binding
        bound.check = Self.hardwareCheck(secret)
        hardware = bound
        return Self.pinSecret(deviceSecret: deviceSecret, hardwareSecret: secret)
    }

    /// The secret the PIN key is derived with: the device secret, then the hardware's.
    static func pinSecret(deviceSecret: Redacted<[UInt8]>, hardwareSecret: Redacted<[UInt8]>?) -> Redacted<[UInt8]> {
        Redacted(deviceSecret.value + (hardwareSecret?.value ?? []))
    }

    /// Whether `secret` is the one this vault's hardware key gave when it was bound.
    func isHardwareSecret(_ secret: Redacted<[UInt8]>) -> Bool {
        hardware.map { LegacyPinProof.constantTimeEquals($0.check, Self.hardwareCheck(secret)) } ?? false
    }

    private static func hardwareCheck(_ secret: Redacted<[UInt8]>) -> [UInt8] {
        Hashing.hmacSHA256(key: secret.value, message: Array("identityflow-device-vault-hardware-check-v1".utf8))
    }

    /// Recomputes ``binding`` after a change.
    mutating func bind(deviceSecret: Redacted<[UInt8]>, profile: UserProfile) {
        binding = bindingCode(deviceSecret: deviceSecret, profile: profile)
    }

    // MARK: - Checks

    /// Why this vault cannot be used on this device, or `nil` when it is whole: boxes of the
    /// wrong shape, iterations outside the accepted range, a failure count outside
    /// `0...maxPinFailures`, or a binding that the device secret does not reproduce (a changed,
    /// truncated or foreign vault, or a count written by something else than a PIN check).
    func damage(deviceSecret: Redacted<[UInt8]>?, profile: UserProfile, acceptedIterations: ClosedRange<Int>, maxPinFailures: Int)
        -> IdentityFlowError?
    {
        guard let deviceSecret else { return Self.damaged(profile, "its device secret is missing") }
        if !acceptedIterations.contains(iterations) {
            return Self.damaged(profile, "its \(iterations) PIN key iterations lie outside \(acceptedIterations.lowerBound)...\(acceptedIterations.upperBound)")
        }
        if !(0...maxPinFailures).contains(failureCount) {
            return Self.damaged(profile, "its failure count \(failureCount) lies outside 0...\(maxPinFailures)")
        }
        let boxes = [sealedTokens] + [biometricWrap, resumeWrap, sealedDPoPKey].compactMap { $0 }
        let pinBoxWhole: Bool
        if let pinSlotWrap {
            pinBoxWhole =
                pinWrap.isEmpty && pinSlotKey?.count == 65 && pinSlotWrap.count == 65 + SealedBox.overhead + Self.keyLength
                && SealedBox.isWellFormed(Array(pinSlotWrap.dropFirst(65)))
        } else {
            pinBoxWhole = pinWrap.count == SealedBox.overhead + Self.keyLength && SealedBox.isWellFormed(pinWrap) && (pinSlotKey?.count ?? 65) == 65
        }
        if salt.count != 16 || !boxes.allSatisfy(SealedBox.isWellFormed) || !pinBoxWhole {
            return Self.damaged(profile, "it is truncated or malformed")
        }
        let bound = LegacyPinProof.constantTimeEquals(binding, bindingCode(deviceSecret: deviceSecret, profile: profile))
        // A vault bound before the count was (a count of 0 only): whole; the next write binds the count.
        let boundBeforeCount =
            failureCount == 0 && generation == nil && pinSlotKey == nil && pinSlotWrap == nil
            && LegacyPinProof.constantTimeEquals(binding, bindingCode(deviceSecret: deviceSecret, profile: profile, coversCount: false))
        if !bound && !boundBeforeCount {
            return Self.damaged(profile, "it was changed, or sealed on another device")
        }
        return nil
    }

    static func damaged(_ profile: UserProfile, _ reason: String) -> IdentityFlowError {
        IdentityFlowError(
            .sealedDataInvalid,
            "The sealed data of profile \(profile.profileId) cannot be used: \(reason). The profile is kept; deregister it to register again.")
    }

    // MARK: - Keys

    /// The PIN key: PBKDF2-HMAC-SHA256 of the PIN, then HKDF-SHA256 with the device secret as
    /// salt and the profile in `info`.
    private static func pinKey(pin: Redacted<String>, salt: [UInt8], iterations: Int, deviceSecret: Redacted<[UInt8]>, profile: UserProfile)
        throws(IdentityFlowError) -> Redacted<[UInt8]>
    {
        let stretched = try LegacyPinProof.derivedKey(pin: pin, salt: salt, iterations: iterations)
        return Redacted(
            HKDF.sha256(
                inputKeyMaterial: stretched.value, salt: deviceSecret.value,
                info: Array("identityflow-device-vault-pin-v1".utf8) + [0] + Array(profile.profileId.utf8),
                outputLength: keyLength))
    }

    /// The PIN slot's P-256 key, derived from the PIN key (HKDF-SHA256, 48 bytes of material).
    private static func slotKey(pinKey: Redacted<[UInt8]>, profile: UserProfile) -> DeviceKey {
        DeviceKey(
            keyMaterial: HKDF.sha256(
                inputKeyMaterial: pinKey.value, salt: [], info: Array("identityflow-device-vault-pin-slot-v1".utf8) + [0] + Array(profile.profileId.utf8),
                outputLength: DeviceKey.keyMaterialLength))
    }

    /// The key that wraps the vault key for the PIN slot: HKDF-SHA256 of the x coordinate of
    /// `scalar` · `point` (constant time in the scalar), salted with both public keys; `nil` when
    /// `point` is not on the curve.
    private static func slotSecret(ephemeral: [UInt8], slotKey: [UInt8], multiplying point: [UInt8], by scalar: Redacted<[UInt8]>, profile: UserProfile)
        -> Redacted<[UInt8]>?
    {
        guard point.count == 65, scalar.value.count == 32 else { return nil }
        var shared = [UInt8](repeating: 0, count: 65)
        guard ifc_p256_multiply(&shared, point, scalar.value) == 1 else { return nil }
        return Redacted(
            HKDF.sha256(
                inputKeyMaterial: Array(shared[1..<33]), salt: ephemeral + slotKey,
                info: Array("identityflow-device-vault-pin-slot-wrap-v1".utf8) + [0] + Array(profile.profileId.utf8), outputLength: keyLength))
    }

    static func associatedData(_ purpose: String, _ profile: UserProfile) -> [UInt8] {
        Array("identityflow-device-vault-v1".utf8) + [0] + Array(profile.profileId.utf8) + [0] + Array(purpose.utf8)
    }

    /// The binding over every field; `coversCount: false` is the binding of vaults written before
    /// the count was bound (they read as whole with a count of 0). A vault with a generation
    /// or a PIN slot binds them too ("binding-v3"); one without keeps the binding it was written with.
    private func bindingCode(deviceSecret: Redacted<[UInt8]>, profile: UserProfile, coversCount: Bool = true) -> [UInt8] {
        let v3 = coversCount && (generation != nil || pinSlotKey != nil || pinSlotWrap != nil)
        var message = Self.associatedData(!coversCount ? "binding" : v3 ? "binding-v3" : "binding-v2", profile) + salt
        withUnsafeBytes(of: Int64(iterations).bigEndian) { message.append(contentsOf: $0) }
        if coversCount { withUnsafeBytes(of: Int64(failureCount).bigEndian) { message.append(contentsOf: $0) } }
        if v3 {
            withUnsafeBytes(of: Int64(generation ?? -1).bigEndian) { message.append(contentsOf: $0) }
            for box in [pinSlotKey ?? [], pinSlotWrap ?? []] {
                withUnsafeBytes(of: UInt32(box.count).bigEndian) { message.append(contentsOf: $0) }
                message += box
            }
        }
        let hardwareFields = hardware.map { $0.keyBlob + $0.peerPublicKey + $0.check } ?? []
        // The DPoP key's box only when there is one: vaults without it keep the binding they had.
        for box in [pinWrap, biometricWrap ?? [], resumeWrap ?? [], sealedTokens, hardwareFields] + (sealedDPoPKey.map { [$0] } ?? []) {
            withUnsafeBytes(of: UInt32(box.count).bigEndian) { message.append(contentsOf: $0) }
            message += box
        }
        return Hashing.hmacSHA256(key: deviceSecret.value, message: message)
    }
}

extension DeviceVault {
    private enum CodingKeys: String, CodingKey {
        case salt, iterations, failureCount, pinWrap, pinSlotKey, pinSlotWrap, biometricWrap, resumeWrap, sealedTokens, binding, hardware, generation
        case sealedDPoPKey
    }

    /// Reads a stored vault, its byte fields in base64 or as the arrays earlier versions wrote.
    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        salt = try container.decodeBytes(forKey: .salt)
        iterations = try container.decode(Int.self, forKey: .iterations)
        failureCount = try container.decode(Int.self, forKey: .failureCount)
        pinWrap = try container.decodeBytes(forKey: .pinWrap)
        pinSlotKey = try container.decodeBytesIfPresent(forKey: .pinSlotKey)
        pinSlotWrap = try container.decodeBytesIfPresent(forKey: .pinSlotWrap)
        biometricWrap = try container.decodeBytesIfPresent(forKey: .biometricWrap)
        resumeWrap = try container.decodeBytesIfPresent(forKey: .resumeWrap)
        sealedTokens = try container.decodeBytes(forKey: .sealedTokens)
        binding = try container.decodeBytes(forKey: .binding)
        hardware = try container.decodeIfPresent(HardwareBinding.self, forKey: .hardware)
        generation = try container.decodeIfPresent(Int.self, forKey: .generation)
        sealedDPoPKey = try container.decodeBytesIfPresent(forKey: .sealedDPoPKey)
    }

    /// Writes the vault with its byte fields in base64 (``StoredProfile/jsonData()`` writes it in the profile).
    /// - Parameter writer: The profile's writer.
    func writeJSON(to writer: inout JSONWriter) {
        writer.punctuation("{")
        writer.key("salt")
        writer.base64(salt)
        writer.punctuation(",")
        writer.key("iterations")
        writer.integer(iterations)
        writer.punctuation(",")
        writer.key("failureCount")
        writer.integer(failureCount)
        writer.punctuation(",")
        writer.key("pinWrap")
        writer.base64(pinWrap)
        for (name, box) in [("pinSlotKey", pinSlotKey), ("pinSlotWrap", pinSlotWrap), ("biometricWrap", biometricWrap), ("resumeWrap", resumeWrap)] {
            guard let box else { continue }
            writer.punctuation(",")
            writer.key(name)
            writer.base64(box)
        }
        writer.punctuation(",")
        writer.key("sealedTokens")
        writer.base64(sealedTokens)
        writer.punctuation(",")
        writer.key("binding")
        writer.base64(binding)
        if let hardware {
            writer.punctuation(",")
            writer.key("hardware")
            writer.punctuation("{")
            writer.key("keyBlob")
            writer.base64(hardware.keyBlob)
            writer.punctuation(",")
            writer.key("peerPublicKey")
            writer.base64(hardware.peerPublicKey)
            writer.punctuation(",")
            writer.key("check")
            writer.base64(hardware.check)
            writer.punctuation("}")
        }
        if let generation {
            writer.punctuation(",")
            writer.key("generation")
            writer.integer(generation)
        }
        if let sealedDPoPKey {
            writer.punctuation(",")
            writer.key("sealedDPoPKey")
            writer.base64(sealedDPoPKey)
        }
        writer.punctuation("}")
    }
}
