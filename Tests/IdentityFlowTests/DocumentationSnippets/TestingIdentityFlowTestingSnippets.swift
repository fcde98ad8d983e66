// swift-format-ignore-file
// IdentityFlowTesting.docc's Swift blocks, verbatim (DocumentationSnippetTests); the first is
// ReadmeExampleTests' registersWithARequest.
import IdentityFlow
import IdentityFlowTesting
import Testing

/// A screen a host's test drives: its delegate runs the flow.
@MainActor
private final class SnippetLoginScreen {
    func logIn(_ profile: UserProfile) {}
}

@MainActor
private func outcomeOfAScreensFlow(client: UserClient, screen: SnippetLoginScreen, profile: UserProfile) async {
    let ending = await client.outcomeOfNextFlow { screen.logIn(profile) }
    #expect(ending.error == nil)
}
