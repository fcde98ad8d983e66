@testable import IdentityFlow
