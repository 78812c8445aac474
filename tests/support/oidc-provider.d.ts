// oidc-provider (dev dependency, the certified OpenID provider run on loopback by the tests) ships no types.
declare module "oidc-provider" {
  const Provider: any;
  export default Provider;
}
