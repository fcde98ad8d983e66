// A host's test target imports IdentityFlowTesting alone and gets the library with it.
@_exported import IdentityFlow
