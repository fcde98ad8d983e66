/// What a delegate protocol's default does with a challenge it cannot answer: the flow fails
/// with ``ErrorCode/actionCancelled`` and a message that names the method the host did not
/// implement, and the client logs a warning that names it too. (A misspelt method, say
/// `didReceiveBrowserChallenge`, compiles as an unrelated method; this makes the mistake loud.)
enum UnimplementedDelegateMethod {
    /// Ends the challenge for want of `method`.
    /// - Parameters:
    ///   - method: The method and its protocol, as the host would write it.
    ///   - observer: The challenge's ticket; `nil` for a challenge a host built with a sender of
    ///     its own, which is cancelled through that sender instead.
    ///   - cancel: Cancels through the challenge's sender.
    static func fail(_ method: String, observer: (any ChallengeReleaseObserver)?, cancel: () -> Bool) {
        guard let observer else {
            _ = cancel()
            return
        }
        observer.challengeUnimplemented(by: method)
    }
}
