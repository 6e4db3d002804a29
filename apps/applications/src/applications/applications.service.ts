import { Injectable } from '@nestjs/common';
import { publicBase } from '@app/config';
import { ApplicantSealer } from '@app/crypto';
import { CreateScope, IdAllocator, Idempotency } from '@app/persistence';
import { ApplicationInput, ApplicationRepresentation, ServiceError } from '@app/contracts';
import { ApplicationsEnvironment } from '../config/applications.environment';
import { toApplicationRepresentation } from './application.mapper';
import { ApplicationRecord } from './application.schema';
import { ApplicationsRepository } from './applications.repository';
import { PropertiesClient } from './properties.client';

@Injectable()
export class ApplicationsService {
  private readonly publicBaseUrl: string;

  constructor(
    private readonly repository: ApplicationsRepository,
    private readonly properties: PropertiesClient,
    private readonly ids: IdAllocator,
    private readonly idempotency: Idempotency,
    private readonly sealer: ApplicantSealer,
    env: ApplicationsEnvironment,
  ) {
    this.publicBaseUrl = publicBase(env.PUBLIC_BASE_URL);
  }

  /** Creates the application and its primary applicant, for a live property the client owns; once per request. */
  create(
    clientId: number,
    input: ApplicationInput,
    scope: Omit<CreateScope, 'clientId' | 'body'>,
  ): Promise<ApplicationRepresentation> {
    return this.idempotency.run({ ...scope, clientId, body: input }, (requestKey) => this.store(clientId, input, requestKey));
  }

  private async store(clientId: number, input: ApplicationInput, requestKey: string): Promise<ApplicationRepresentation> {
    const property = await this.properties.lookup(clientId, input.property_id);
    if (!property) throw ServiceError.propertyIdInvalid();

    const [id, applicantId] = await Promise.all([this.ids.allocate('applications'), this.ids.allocate('applicants')]);
    const { applicant } = input;
    const now = new Date();
    const record: ApplicationRecord = {
      id,
      client_id: clientId,
      property_id: property.id,
      property_name: property.name,
      assigned_user_id: input.assigned_user_id ?? null,
      user_specified_rent: input.user_specified_rent ?? null,
      desired_move_in: input.desired_move_in ?? null,
      applicants: [
        {
          id: applicantId,
          type: 'primary',
          first_name: applicant.first_name,
          last_name: applicant.last_name,
          email: applicant.email,
          dob: applicant.dob ? this.sealer.sealField('dob', applicant.dob) : null,
          id_number: applicant.id_number ? this.sealer.sealField('id_number', applicant.id_number) : null,
          phone: applicant.phone ?? null,
          custom_data: applicant.custom_data ? JSON.stringify(applicant.custom_data) : null,
          reference_id: applicant.reference_id ?? null,
          redirect_url: applicant.redirect_url ?? null,
        },
      ],
      created_at: now,
      updated_at: now,
      request_key: requestKey,
    };
    return toApplicationRepresentation(await this.repository.insertOnce(record), this.publicBaseUrl);
  }
}
