import SwiftUI

/// A small iOS host of IdentityFlow: register with the provider's sign-in page, create a PIN, log
/// in with the PIN or Face ID / Touch ID, add biometrics, log out. See README.md beside it.
@main
struct IdentityFlowExampleApp: App {
    @StateObject private var model = ExampleModel()

    var body: some Scene {
        WindowGroup {
            ContentView(model: model)
                .task { await model.start() }
        }
    }
}
