import IdentityFlow
import SwiftUI

/// The example's one screen: what the client knows, and a button per flow.
struct ContentView: View {
    @ObservedObject var model: ExampleModel

    var body: some View {
        NavigationStack {
            Form {
                Section("Status") {
                    Text(model.status)
                    if let profile = model.profile { Text("Profile \(profile.profileId)").font(.footnote) }
                }
                Section {
                    if model.profile == nil {
                        button("Register") { await model.register() }
                    } else if model.loggedIn {
                        if !model.hasBiometrics { button("Add Face ID / Touch ID") { await model.addBiometrics() } }
                        button("Log out") { await model.logOut() }
                    } else {
                        button("Log in with PIN") { await model.logIn(with: .pin) }
                        if model.hasBiometrics { button("Log in with Face ID / Touch ID") { await model.logIn(with: .biometric) } }
                    }
                }
            }
            .navigationTitle("IdentityFlow")
        }
        .sheet(item: $model.pinRequest) { request in
            PinSheet(request: request) { model.pinEntered($0) }
        }
    }

    private func button(_ title: String, action: @escaping @MainActor () async -> Void) -> some View {
        Button(title) { Task { await action() } }
    }
}

/// Asks for a PIN of the length the policy sets.
struct PinSheet: View {
    let request: ExampleModel.PinRequest
    let done: (String?) -> Void
    @State private var pin = ""

    var body: some View {
        NavigationStack {
            Form {
                if let problem = request.problem { Text(problem).foregroundStyle(.red) }
                SecureField(request.length.map { "\($0) digits" } ?? "PIN", text: $pin).keyboardType(.numberPad)
            }
            .navigationTitle(request.title)
            .toolbar {
                ToolbarItem(placement: .cancellationAction) { Button("Cancel") { done(nil) } }
                ToolbarItem(placement: .confirmationAction) {
                    Button("OK") { done(pin) }.disabled(pin.isEmpty || request.length.map { pin.count != $0 } ?? false)
                }
            }
        }
    }
}
