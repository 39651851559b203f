// The two kinds of failure the subject distinguishes. A ConfigurationError is a host
// configuration error: something the application or host declared or called wrongly (an invalid
// definition, schema, binding or context); it is thrown to the host, never to a client. Outcomes
// that reach a client are values (errors.mjs builds none of them): see outcomes.mjs.

export class ConfigurationError extends Error {
  constructor(message) {
    super(message);
    this.name = 'RcipConfigurationError';
  }
}
