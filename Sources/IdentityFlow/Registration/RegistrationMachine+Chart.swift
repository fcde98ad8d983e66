import Statechart

extension RegistrationMachine {
    /// Every transition the registration machine can take. `identityflow charts` draws it into
    /// `StateCharts/Registration.*`; tests check the machine takes no other.
    ///
    /// Each sign-in variant (``SignIn``) and the ``Enrolment`` declare their own transitions and
    /// are drawn as compound states; the parent adds its entries, the shared `cancelling` state and
    /// the discarding of a half-made registration. The compound `signingIn` (the state that holds
    /// the ``SignIn``) nests one compound per variant (`browserSignIn`, `customSignIn`,
    /// `credentialsSignIn`, `tokenExchangeSignIn`); `enrolling` follows it.
    package static let chart = Chart(
        name: "Registration",
        swiftType: "IdentityFlow.RegistrationMachine",
        initial: "idle",
        finals: ["registered", "failed"],
        transitions: startTransitions + BrowserSignIn.transitions + CustomSignIn.transitions + CredentialsSignIn.transitions
            + TokenExchangeSignIn.transitions + Enrolment.transitions + cancellingTransitions
            + [.init(from: "discardingRegistration", on: "registrationDiscarded", to: "failed")],
        compounds: [
            ChartCompound(
                name: "signingIn", initial: "preparingAuthorization",
                children: BrowserSignIn.leaves + CustomSignIn.leaves + CredentialsSignIn.leaves + TokenExchangeSignIn.leaves),
            ChartCompound(name: "browserSignIn", initial: "preparingAuthorization", children: BrowserSignIn.leaves),
            ChartCompound(name: "customSignIn", initial: "awaitingCustomInitData", children: CustomSignIn.leaves),
            ChartCompound(name: "credentialsSignIn", initial: "awaitingCredentials", children: CredentialsSignIn.leaves),
            ChartCompound(name: "tokenExchangeSignIn", initial: "exchangingExternalToken", children: TokenExchangeSignIn.leaves),
            ChartCompound(name: "enrolling", initial: "awaitingPin", children: Enrolment.leaves),
        ])

    /// The provider's kind picks the sign-in variant; a checkpointed registration resumes its
    /// browser sign-in.
    private static let startTransitions: [ChartTransition] = [
        .init(from: "idle", on: "started", guard: "browserProvider", to: "preparingAuthorization"),
        .init(from: "idle", on: "started", guard: "oneStepProvider", to: "awaitingCustomFinishData"),
        .init(from: "idle", on: "started", guard: "twoStepProvider", to: "awaitingCustomInitData"),
        .init(from: "idle", on: "started", guard: "credentialsProvider", to: "awaitingCredentials"),
        .init(from: "idle", on: "started", guard: "tokenExchange", to: "exchangingExternalToken"),
        .init(from: "idle", on: "resumed", guard: "redirectHandedOver", to: "awaitingBrowserRedirect"),
        // Asked for the browser again: the URL is built anew (a pushed request expires).
        .init(from: "idle", on: "resumed", guard: "awaitingRedirect", to: "preparingAuthorization"),
    ]

    /// A cancel while the server may be issuing tokens lets the call finish, then discards what
    /// it issued: a cancel that lands as the server answers leaves no live token behind. The
    /// sign-in variants enter `cancelling` from their issuing states; this is its one copy.
    private static let cancellingTransitions: [ChartTransition] = [
        .init(from: "cancelling", on: "credentialsAnswered", guard: "tokensIssued", to: "discardingRegistration"),
        .init(from: "cancelling", on: "credentialsAnswered", guard: "noTokens", to: "failed"),
        .init(from: "cancelling", on: "partialRegistrationAnswered", guard: "tokensIssued", to: "discardingRegistration"),
        .init(from: "cancelling", on: "partialRegistrationAnswered", guard: "noTokens", to: "failed"),
        .init(from: "cancelling", on: "codeExchanged", guard: "tokensIssued", to: "discardingRegistration"),
        .init(from: "cancelling", on: "stepUpRefused", guard: "tokensIssued", to: "discardingRegistration"),
        .init(from: "cancelling", on: "customAnswerReceived", guard: "tokensIssued", to: "discardingRegistration"),
        .init(from: "cancelling", on: "customAnswerReceived", guard: "noTokens", to: "failed"),
        .init(from: "cancelling", on: "serviceFailed", to: "failed"),
    ]
}
