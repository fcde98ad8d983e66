/// The floor for a transition: an enum switch in a struct, shaped like a registration (six states
/// in a row, an effect named per transition), with no engine around it.
struct FloorSwitchMachine {
    enum State { case idle, awaitingData, sendingData, awaitingPin, enrollingPin, storingProfile, registered }
    enum Event { case started, dataProvided, answerReceived, pinProvided, pinEnrolled, profileStored }
    enum Effect { case emitChallenge, sendData, emitPinChallenge, enrolPin, storeProfile, reportSuccess }

    var state = State.idle

    /// The events of one registration, in order.
    static let registration: [Event] = [.started, .dataProvided, .answerReceived, .pinProvided, .pinEnrolled, .profileStored]

    @inline(never)
    mutating func handle(_ event: Event) -> Effect? {
        switch (state, event) {
        case (.idle, .started): state = .awaitingData; return .emitChallenge
        case (.awaitingData, .dataProvided): state = .sendingData; return .sendData
        case (.sendingData, .answerReceived): state = .awaitingPin; return .emitPinChallenge
        case (.awaitingPin, .pinProvided): state = .enrollingPin; return .enrolPin
        case (.enrollingPin, .pinEnrolled): state = .storingProfile; return .storeProfile
        case (.storingProfile, .profileStored): state = .registered; return .reportSuccess
        default: return nil
        }
    }
}

/// The floor for an event through an actor: an actor method call with an enum switch.
actor FloorActor {
    enum State { case off, on }
    enum Event { case toggle }

    private var state = State.off

    func handle(_ event: Event) -> Bool {
        switch (state, event) {
        case (.off, .toggle): state = .on; return true
        case (.on, .toggle): state = .off; return true
        }
    }
}
