"""IdentityFlow extension endpoints: identity providers, custom registration, PIN proof login."""
