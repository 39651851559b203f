// The test double plus an Assist export: the adapter must then declare the `assist` profile
// (with a batch bound) and answer every Assist step `unsupported`.

export * from './double.mjs';

export function createRcipAssist() {
  throw new Error('the test double has no Assist orchestrator');
}
