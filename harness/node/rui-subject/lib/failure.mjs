// A failure of the open transaction with its register code (CL-D08, vectors/RUI-CODES.md): thrown
// while a record is staged or a commit is validated, caught where the transaction ends.
export class Failure {
  constructor(code) {
    this.code = code;
  }
}
