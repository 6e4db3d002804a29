import { Injectable, PipeTransform } from '@nestjs/common';
import { ApplicantSealer } from '@app/crypto';
import { DeliveredMessage } from '@app/messaging';

/**
 * Turns a create-application message (with its message id, which its sealed fields are bound
 * to) into its request with the applicant's sealed fields in clear, so that the contract
 * validates the values the service is about to store.
 */
@Injectable()
export class OpenSealedApplicantPipe implements PipeTransform<DeliveredMessage, unknown> {
  constructor(private readonly sealer: ApplicantSealer) {}

  transform({ data, messageId }: DeliveredMessage): unknown {
    return this.sealer.open(data, messageId);
  }
}

/** The same for an add-co-applicant message. */
@Injectable()
export class OpenSealedCoApplicantPipe implements PipeTransform<DeliveredMessage, unknown> {
  constructor(private readonly sealer: ApplicantSealer) {}

  transform({ data, messageId }: DeliveredMessage): unknown {
    return this.sealer.openCoApplicant(data, messageId);
  }
}
