/// Runs at most one token refresh at a time: concurrent callers share the one in flight, so a
/// rotated refresh token is never sent twice.
actor TokenRefresher {
    private var inFlight: Task<Result<TokenSet, IdentityFlowError>, Never>?

    /// Joins the refresh in flight, or starts `refresh` as the new one.
    func run(_ refresh: @escaping @Sendable () async -> Result<TokenSet, IdentityFlowError>) async -> Result<TokenSet, IdentityFlowError> {
        if let inFlight { return await inFlight.value }
        let task = Task { await refresh() }
        inFlight = task
        let result = await task.value
        inFlight = nil
        return result
    }
}
