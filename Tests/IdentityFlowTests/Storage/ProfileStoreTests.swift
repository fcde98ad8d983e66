import Foundation
import Testing
@_spi(Integrator) @testable import IdentityFlow

@Suite("Profile store encoding")
struct ProfileStoreTests {
    static let tokens = TokenSet(
        accessToken: "at-1", refreshToken: "rt-1", idToken: "eyJ.x.y",
        expiresAt: Date(timeIntervalSinceReferenceDate: 767_000_000.25), scopes: ["openid", "profile"])
    static let full = StoredProfile(profile: UserProfile(profileId: "p/1 \"é\""), tokens: tokens, deviceSecret: Redacted([9, 0, 255]), hasBiometricKey: true)
    static let minimal = StoredProfile(profile: UserProfile(profileId: "q"), tokens: TokenSet(accessToken: "at-2"), deviceSecret: nil)
    /// A PIN proof v1 profile with biometrics: its v1 key stored with it, no device secret.
    static let legacy: StoredProfile = {
        var profile = StoredProfile(profile: UserProfile(profileId: "p/1 \"é\""), tokens: tokens, deviceSecret: nil)
        profile.biometricKey = Redacted([0, 7, 255])
        return profile
    }()

    /// What `JSONEncoder` wrote for ``legacy`` and ``minimal`` before profiles had their own encoder
    /// (member order as that encoder left it, `/` escaped): files stored then must still load.
    static let earlierForms: [(String, StoredProfile)] = [
        (
            #"{"tokens":{"expiresAt":767000000.25,"scopes":["openid","profile"],"refreshToken":"rt-1","accessToken":"at-1","idToken":"eyJ.x.y"},"profile":{"profileId":"p\/1 \"é\""},"biometricKey":[0,7,255]}"#,
            legacy
        ),
        (#"{"tokens":{"accessToken":"at-2","scopes":[]},"profile":{"profileId":"q"}}"#, minimal),
    ]

    @Test("profiles stored by JSONEncoder in earlier versions still decode")
    func earlierFormDecodes() throws {
        for (json, expected) in Self.earlierForms {
            #expect(try JSONDecoder().decode(StoredProfile.self, from: Data(json.utf8)) == expected)
        }
    }

    @Test("profiles stored by JSONEncoder in earlier versions still load from storage")
    func earlierFormLoads() throws {
        let storage = InMemoryStorage()
        for (json, expected) in Self.earlierForms {
            try storage.setData(Data(json.utf8), forKey: "identityflow.profile." + expected.profile.profileId)
        }
        let store = ProfileStore(storage: storage, logger: IdentityFlowLogger.disabled)
        #expect(Set(try store.loadAll().profiles) == [Self.legacy, Self.minimal])
    }

    /// A device-mode profile as versions before issue 38 wrote it: every byte field an array of numbers.
    static let arrayFormDevice =
        #"{"profile":{"profileId":"d"},"tokens":{"accessToken":"","scopes":[]},"deviceSecret":[1,2,3],"vault":{"salt":[4,5],"iterations":7,"failureCount":1,"pinWrap":[6],"biometricWrap":[8],"resumeWrap":[9],"sealedTokens":[10,11],"binding":[12],"hardware":{"keyBlob":[13],"peerPublicKey":[14],"check":[15]}}}"#

    @Test("a device-mode profile stored with byte arrays (before issue 38) loads, and is written back with every byte field in base64")
    func arrayFormMigrates() throws {
        let old = try JSONDecoder().decode(StoredProfile.self, from: Data(Self.arrayFormDevice.utf8))
        #expect(old.deviceSecret?.value == [1, 2, 3])
        #expect(old.vault?.salt == [4, 5])
        #expect(old.vault?.pinWrap == [6])
        #expect(old.vault?.biometricWrap == [8])
        #expect(old.vault?.resumeWrap == [9])
        #expect(old.vault?.sealedTokens == [10, 11])
        #expect(old.vault?.binding == [12])
        #expect(old.vault?.hardware == HardwareBinding(keyBlob: [13], peerPublicKey: [14], check: [15]))
        let written = String(decoding: try old.jsonData(), as: UTF8.self)
        #expect(
            written
                == #"{"profile":{"profileId":"d"},"tokens":{"accessToken":"","scopes":[]},"deviceSecret":"AQID","vault":{"salt":"BAU=","iterations":7,"failureCount":1,"pinWrap":"Bg==","biometricWrap":"CA==","resumeWrap":"CQ==","sealedTokens":"Cgs=","binding":"DA==","hardware":{"keyBlob":"DQ==","peerPublicKey":"Dg==","check":"Dw=="}}}"#
        )
        #expect(try JSONDecoder().decode(StoredProfile.self, from: Data(written.utf8)) == old)
    }

    @Test("a byte field that is neither base64 nor an array of bytes makes the profile unreadable")
    func byteFieldNotBase64() {
        for field in [#""*not base64*""#, "[1,256]", "7"] {
            let json = #"{"profile":{"profileId":"q"},"tokens":{"accessToken":"","scopes":[]},"deviceSecret":"# + field + "}"
            #expect(throws: DecodingError.self) { try JSONDecoder().decode(StoredProfile.self, from: Data(json.utf8)) }
        }
    }

    @Test("the written JSON is the members JSONEncoder writes, in its order of declaration")
    func writtenForm() throws {
        let json = String(decoding: try Self.full.jsonData(), as: UTF8.self)
        #expect(
            json
                == #"{"profile":{"profileId":"p/1 \"é\""},"tokens":{"accessToken":"at-1","refreshToken":"rt-1","idToken":"eyJ.x.y","expiresAt":767000000.25,"scopes":["openid","profile"]},"deviceSecret":"CQD/","hasBiometricKey":true}"#
        )
        #expect(String(decoding: try Self.legacy.jsonData(), as: UTF8.self).hasSuffix(#""biometricKey":"AAf/"}"#))
        #expect(String(decoding: try Self.minimal.jsonData(), as: UTF8.self) == #"{"profile":{"profileId":"q"},"tokens":{"accessToken":"at-2","scopes":[]}}"#)
    }

    @Test(
        "every string, date and key round-trips through JSONDecoder",
        arguments: [
            "", "plain", "quote \" backslash \\ slash /", "controls \u{0}\u{1}\u{8}\u{9}\u{A}\u{C}\u{D}\u{1F}\u{7F}",
            "unicode é ü 中文 🔑 \u{2028}\u{2029}", "\\u0041 is not an escape here",
        ])
    func roundTrips(text: String) throws {
        let dates: [Date?] = [
            nil, Date(timeIntervalSinceReferenceDate: 0), Date(timeIntervalSinceReferenceDate: -1.5),
            Date(timeIntervalSinceReferenceDate: 1e-7), Date(timeIntervalSinceReferenceDate: 1e20),
            Date(timeIntervalSinceReferenceDate: 767_000_000.123456), Date(),
        ]
        for date in dates {
            let stored = StoredProfile(
                profile: UserProfile(profileId: text),
                tokens: TokenSet(accessToken: text, refreshToken: text, idToken: text.isEmpty ? nil : text, expiresAt: date, scopes: [text, "openid"]),
                deviceSecret: Redacted(Array(0...255)), hasBiometricKey: text.isEmpty)
            let data = try stored.jsonData()
            #expect(try JSONDecoder().decode(StoredProfile.self, from: data) == stored)
            #expect(try JSONSerialization.jsonObject(with: data) is [String: Any])
        }
    }

    @Test("a save followed by a load gives the same profiles")
    func saveAndLoad() throws {
        let store = ProfileStore(storage: InMemoryStorage(), logger: IdentityFlowLogger.disabled)
        try store.save(Self.full)
        try store.save(Self.minimal)
        #expect(Set(try store.loadAll().profiles) == [Self.full, Self.minimal])
    }

    @Test("an expiry JSON cannot hold fails the save with dataStorageNotAvailable", arguments: [Double.infinity, -Double.infinity, Double.nan])
    func nonFiniteDate(seconds: Double) {
        var stored = Self.minimal
        stored.tokens.expiresAt = Date(timeIntervalSinceReferenceDate: seconds)
        let store = ProfileStore(storage: InMemoryStorage(), logger: IdentityFlowLogger.disabled)
        #expect { try store.save(stored) } throws: { ($0 as? IdentityFlowError)?.code == .dataStorageNotAvailable }
    }
}
