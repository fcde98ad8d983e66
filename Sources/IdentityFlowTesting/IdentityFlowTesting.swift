@_exported import IdentityFlow
