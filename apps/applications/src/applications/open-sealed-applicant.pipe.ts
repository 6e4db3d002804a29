import { Injectable, PipeTransform } from '@nestjs/common';
import { ApplicantSealer } from '@app/crypto';

/**
 * Turns a create-application message into its request with the applicant's sealed fields in
 * clear, so that the contract validates the values the service is about to store.
 */
@Injectable()
export class OpenSealedApplicantPipe implements PipeTransform<unknown, unknown> {
  constructor(private readonly sealer: ApplicantSealer) {}

  transform(message: unknown): unknown {
    return this.sealer.open(message);
  }
}

/** The same for an add-co-applicant message. */
@Injectable()
export class OpenSealedCoApplicantPipe implements PipeTransform<unknown, unknown> {
  constructor(private readonly sealer: ApplicantSealer) {}

  transform(message: unknown): unknown {
    return this.sealer.openCoApplicant(message);
  }
}
