import Statechart

extension RegistrationMachine {
    /// Every transition the registration machine can take. `identityflow charts` draws it into
    /// `StateCharts/Registration.*`; tests check the machine takes no other.
    package static let chart = Chart(
        name: "Registration",
        swiftType: "IdentityFlow.RegistrationMachine",
        initial: "idle",
        finals: ["registered", "failed"],
        transitions: startTransitions + browserTransitions + customTransitions + credentialsTransitions + pinTransitions + endingTransitions
            + cancellingTransitions)

    private static let startTransitions: [ChartTransition] = [
        .init(from: "idle", on: "started", guard: "browserProvider", to: "preparingAuthorization"),
        .init(from: "idle", on: "started", guard: "oneStepProvider", to: "awaitingCustomFinishData"),
        .init(from: "idle", on: "started", guard: "twoStepProvider", to: "awaitingCustomInitData"),
        .init(from: "idle", on: "started", guard: "credentialsProvider", to: "awaitingCredentials"),
        .init(from: "idle", on: "started", guard: "tokenExchange", to: "exchangingExternalToken"),
        .init(from: "idle", on: "resumed", guard: "redirectHandedOver", to: "awaitingBrowserRedirect"),
        .init(from: "idle", on: "resumed", guard: "awaitingRedirect", to: "awaitingBrowserRedirect"),
    ]

    private static let browserTransitions: [ChartTransition] = [
        .init(from: "preparingAuthorization", on: "authorizationURLBuilt", to: "savingCheckpoint"),
        .init(from: "savingCheckpoint", on: "checkpointSaved", to: "awaitingBrowserRedirect"),
        .init(from: "awaitingBrowserRedirect", on: "redirectReceived", guard: "authorized", to: "exchangingCode"),
        .init(from: "awaitingBrowserRedirect", on: "redirectReceived", guard: "denied", to: "failed"),
        .init(from: "awaitingBrowserRedirect", on: "redirectReceived", guard: "stateMismatch", to: "failed"),
        .init(from: "awaitingBrowserRedirect", on: "redirectReceived", guard: "redirectMismatch", to: "failed"),
        .init(from: "awaitingBrowserRedirect", on: "redirectReceived", guard: "malformed", to: "failed"),
        // Schibsted's BankID return: taken and ignored, the challenge stays open.
        .init(from: "awaitingBrowserRedirect", on: "intermediateRedirectIgnored", to: "awaitingBrowserRedirect"),
        // Zephr's partial registration: the provider needs more attributes before it issues tokens.
        .init(from: "awaitingBrowserRedirect", on: "redirectReceived", guard: "partial", to: "awaitingPartialRegistration"),
        // Zephr's login of an existing user: its session is exchanged for tokens.
        .init(from: "awaitingBrowserRedirect", on: "redirectReceived", guard: "session", to: "exchangingCode"),
        .init(from: "awaitingPartialRegistration", on: "partialDataProvided", to: "sendingPartialRegistration"),
        .init(from: "sendingPartialRegistration", on: "partialRegistrationAnswered", to: "awaitingPin"),
        .init(from: "sendingPartialRegistration", on: "partialRegistrationAnswered", guard: "stateless", to: "storingProfile"),
        .init(from: "sendingPartialRegistration", on: "partialRegistrationAnswered", guard: "refused", to: "awaitingPartialRegistration"),
        .init(from: "exchangingCode", on: "codeExchanged", to: "awaitingPin"),
        // A stateless registration keeps no PIN and no profile (its browser step is checkpointed like any other).
        .init(from: "exchangingCode", on: "codeExchanged", guard: "stateless", to: "storingProfile"),
    ]

    private static let customTransitions: [ChartTransition] = [
        .init(from: "awaitingCustomInitData", on: "customDataProvided", to: "sendingCustomInitData"),
        .init(from: "sendingCustomInitData", on: "customAnswerReceived", guard: "success", to: "awaitingCustomFinishData"),
        .init(from: "sendingCustomInitData", on: "customAnswerReceived", guard: "recoverable", to: "awaitingCustomInitData"),
        .init(from: "sendingCustomInitData", on: "customAnswerReceived", guard: "unrecoverable", to: "failed"),
        .init(from: "sendingCustomInitData", on: "customAnswerReceived", guard: "invalidAnswer", to: "failed"),
        .init(from: "awaitingCustomFinishData", on: "customDataProvided", to: "sendingCustomFinishData"),
        .init(from: "sendingCustomFinishData", on: "customAnswerReceived", guard: "success", to: "awaitingPin"),
        .init(from: "sendingCustomFinishData", on: "customAnswerReceived", guard: "statelessSuccess", to: "storingProfile"),
        .init(from: "sendingCustomFinishData", on: "customAnswerReceived", guard: "recoverable", to: "awaitingCustomFinishData"),
        .init(from: "sendingCustomFinishData", on: "customAnswerReceived", guard: "unrecoverable", to: "failed"),
        .init(from: "sendingCustomFinishData", on: "customAnswerReceived", guard: "invalidAnswer", to: "failed"),
    ]

    /// 7Pass: a login and password (the password grant), or another provider's token (RFC 8693);
    /// `interaction_required` continues in the browser with an autologin token.
    private static let credentialsTransitions: [ChartTransition] =
        [
            .init(from: "awaitingCredentials", on: "credentialsProvided", to: "sendingCredentials"),
            .init(from: "sendingCredentials", on: "credentialsAnswered", guard: "invalid", to: "awaitingCredentials"),
            .init(from: "exchangingExternalToken", on: "credentialsAnswered", guard: "invalid", to: "failed"),
        ]
        + ["sendingCredentials", "exchangingExternalToken"].flatMap { state in
            [
                ChartTransition(from: state, on: "credentialsAnswered", to: "awaitingPin"),
                ChartTransition(from: state, on: "credentialsAnswered", guard: "stateless", to: "storingProfile"),
                ChartTransition(from: state, on: "credentialsAnswered", guard: "interactionRequired", to: "preparingAuthorization"),
            ]
        }

    private static let pinTransitions: [ChartTransition] = [
        .init(from: "awaitingPin", on: "pinProvided", guard: "policySatisfied", to: "enrollingPin"),
        .init(from: "awaitingPin", on: "pinProvided", guard: "policyViolated", to: "awaitingPin"),
        .init(from: "enrollingPin", on: "pinEnrolled", to: "storingProfile"),
        .init(from: "storingProfile", on: "profileStored", to: "registered"),
    ]

    /// Failures, abandoned challenges and cancellation: states that hold server-side credentials
    /// end through `discardingRegistration`, the others fail at once. `storingProfile` (one local
    /// write) and `discardingRegistration` (already failing) ignore a cancel.
    private static let endingTransitions: [ChartTransition] = {
        let holdingCredentials = ["awaitingPin", "enrollingPin", "storingProfile"]
        func ending(_ state: String, on event: String) -> ChartTransition {
            .init(from: state, on: event, to: holdingCredentials.contains(state) ? "discardingRegistration" : "failed")
        }
        let calling = [
            "preparingAuthorization", "savingCheckpoint", "exchangingCode", "sendingCustomInitData", "sendingCustomFinishData",
            "sendingPartialRegistration", "sendingCredentials", "exchangingExternalToken", "enrollingPin", "storingProfile",
        ]
        let awaiting = [
            "awaitingBrowserRedirect", "awaitingCustomInitData", "awaitingCustomFinishData", "awaitingPartialRegistration",
            "awaitingCredentials", "awaitingPin",
        ]
        let issuing = ["exchangingCode", "sendingCustomFinishData", "sendingPartialRegistration", "sendingCredentials", "exchangingExternalToken"]
        return calling.map { ending($0, on: "serviceFailed") }
            + awaiting.map { ending($0, on: "challengeAbandoned") }
            + (calling + awaiting).filter { $0 != "storingProfile" && !issuing.contains($0) }.map { ending($0, on: "cancelRequested") }
            + [.init(from: "discardingRegistration", on: "registrationDiscarded", to: "failed")]
    }()

    /// A cancel while the server may be issuing tokens lets the call finish, then discards what
    /// it issued: a cancel that lands as the server answers leaves no live token behind.
    private static let cancellingTransitions: [ChartTransition] = [
        .init(from: "exchangingCode", on: "cancelRequested", to: "cancelling"),
        .init(from: "sendingCustomFinishData", on: "cancelRequested", to: "cancelling"),
        .init(from: "sendingPartialRegistration", on: "cancelRequested", to: "cancelling"),
        .init(from: "sendingCredentials", on: "cancelRequested", to: "cancelling"),
        .init(from: "exchangingExternalToken", on: "cancelRequested", to: "cancelling"),
        .init(from: "cancelling", on: "credentialsAnswered", guard: "tokensIssued", to: "discardingRegistration"),
        .init(from: "cancelling", on: "credentialsAnswered", guard: "noTokens", to: "failed"),
        .init(from: "cancelling", on: "partialRegistrationAnswered", guard: "tokensIssued", to: "discardingRegistration"),
        .init(from: "cancelling", on: "partialRegistrationAnswered", guard: "noTokens", to: "failed"),
        .init(from: "cancelling", on: "codeExchanged", guard: "tokensIssued", to: "discardingRegistration"),
        .init(from: "cancelling", on: "customAnswerReceived", guard: "tokensIssued", to: "discardingRegistration"),
        .init(from: "cancelling", on: "customAnswerReceived", guard: "noTokens", to: "failed"),
        .init(from: "cancelling", on: "serviceFailed", to: "failed"),
    ]
}
