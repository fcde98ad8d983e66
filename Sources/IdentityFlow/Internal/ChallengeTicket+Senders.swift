import Foundation

/// The ticket is also the challenge's sender: answers go to this ticket, and only for the
/// challenge it was issued with. Each public sender protocol is adopted for its answer type.
/// (One object per challenge instead of a ticket and a separate sender.)
extension ChallengeTicket {
    func settle(_ outcome: ChallengeOutcome<Answer>, for observer: (any ChallengeReleaseObserver)?) -> Bool {
        guard observer === self else {
            logger.log(.warning, "An answer to \(challengeName) came with a challenge this sender did not issue; ignored.", flow: flowID)
            return false
        }
        return settle(outcome)
    }
}

/// A URL from the browser.
extension ChallengeTicket: BrowserRegistrationChallengeSender where Answer == URL {
    func respond(with redirectURL: URL, to challenge: BrowserRegistrationChallenge) -> Bool {
        settle(.answered(redirectURL), for: challenge.releaseObserver)
    }

    func cancel(_ challenge: BrowserRegistrationChallenge) -> Bool {
        settle(.abandoned(.cancelled), for: challenge.releaseObserver)
    }
}

/// Custom registration data.
extension ChallengeTicket: CustomRegistrationChallengeSender where Answer == Redacted<String?> {
    func respond(with data: String?, to challenge: CustomRegistrationChallenge) -> Bool {
        settle(.answered(Redacted(data)), for: challenge.releaseObserver)
    }

    func cancel(_ challenge: CustomRegistrationChallenge) -> Bool {
        settle(.abandoned(.cancelled), for: challenge.releaseObserver)
    }
}

/// A new PIN.
extension ChallengeTicket: CreatePinChallengeSender where Answer == Redacted<String> {
    func respond(with pin: String, to challenge: CreatePinChallenge) -> Bool {
        settle(.answered(Redacted(pin)), for: challenge.releaseObserver)
    }

    func cancel(_ challenge: CreatePinChallenge) -> Bool {
        settle(.abandoned(.cancelled), for: challenge.releaseObserver)
    }
}

/// An entered PIN.
extension ChallengeTicket: PinChallengeSender where Answer == Redacted<String> {
    func respond(with pin: String, to challenge: PinChallenge) -> Bool {
        settle(.answered(Redacted(pin)), for: challenge.releaseObserver)
    }

    func cancel(_ challenge: PinChallenge) -> Bool {
        settle(.abandoned(.cancelled), for: challenge.releaseObserver)
    }
}

/// The host's verdict as the biometric sensor.
extension ChallengeTicket: BiometricChallengeSender where Answer == BiometricAnswer {
    func respond(to challenge: BiometricChallenge) -> Bool {
        settle(.answered(.confirmed), for: challenge.releaseObserver)
    }

    func respondWithPinFallback(to challenge: BiometricChallenge) -> Bool {
        settle(.answered(.pinFallback), for: challenge.releaseObserver)
    }

    func reportFailure(for challenge: BiometricChallenge) -> Bool {
        settle(.answered(.failed), for: challenge.releaseObserver)
    }

    func cancel(_ challenge: BiometricChallenge) -> Bool {
        settle(.abandoned(.cancelled), for: challenge.releaseObserver)
    }
}

/// The user's decision on a mobile authentication request.
extension ChallengeTicket: MobileAuthConfirmationChallengeSender where Answer == Bool {
    func respond(with accepted: Bool, to challenge: MobileAuthConfirmationChallenge) -> Bool {
        settle(.answered(accepted), for: challenge.releaseObserver)
    }

    func cancel(_ challenge: MobileAuthConfirmationChallenge) -> Bool {
        settle(.abandoned(.cancelled), for: challenge.releaseObserver)
    }
}

/// The attributes a partial registration still needs.
extension ChallengeTicket: PartialRegistrationChallengeSender where Answer == Redacted<[String: String]> {
    func respond(with attributes: [String: String], to challenge: PartialRegistrationChallenge) -> Bool {
        settle(.answered(Redacted(attributes)), for: challenge.releaseObserver)
    }

    func cancel(_ challenge: PartialRegistrationChallenge) -> Bool {
        settle(.abandoned(.cancelled), for: challenge.releaseObserver)
    }
}

/// A login and password.
extension ChallengeTicket: CredentialsChallengeSender where Answer == LoginCredentials {
    func respond(withLogin login: String, password: String, to challenge: CredentialsChallenge) -> Bool {
        settle(.answered(LoginCredentials(login: login, password: Redacted(password))), for: challenge.releaseObserver)
    }

    func cancel(_ challenge: CredentialsChallenge) -> Bool {
        settle(.abandoned(.cancelled), for: challenge.releaseObserver)
    }
}

/// The redirect back from the provider's logout page.
extension ChallengeTicket: ProviderLogoutChallengeSender where Answer == URL {
    func respond(with redirectURL: URL, to challenge: ProviderLogoutChallenge) -> Bool {
        settle(.answered(redirectURL), for: challenge.releaseObserver)
    }

    func cancel(_ challenge: ProviderLogoutChallenge) -> Bool {
        settle(.abandoned(.cancelled), for: challenge.releaseObserver)
    }
}
