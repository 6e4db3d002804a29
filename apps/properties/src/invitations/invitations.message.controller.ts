import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import {
  CreateInvitationMessage,
  CreateInvitationRequest,
  ErrorCode,
  INVITATIONS,
  InvitationResponse,
  InvitationTokenMessage,
  isPositiveId,
  parseRequest,
  readFloorPlansRef,
  ServiceError,
  UsableInvitation,
} from '@app/contracts';
import { FORM_TOKEN } from '@app/crypto';
import { InvitationsService } from './invitations.service';

@Controller()
export class InvitationsMessageController {
  constructor(private readonly invitations: InvitationsService) {}

  @MessagePattern(INVITATIONS.CREATE)
  async create(@Payload() message: CreateInvitationMessage): Promise<InvitationResponse> {
    const { clientId, propertyId } = readFloorPlansRef(message);
    const { invitation } = parseRequest(CreateInvitationRequest, message.request);
    return { invitation: await this.invitations.create(clientId, propertyId, invitation) };
  }

  @MessagePattern(INVITATIONS.CHECK)
  check(@Payload() message: InvitationTokenMessage): Promise<UsableInvitation | null> {
    const { propertyId, digest } = readInvitationToken(message);
    return this.invitations.check(propertyId, digest);
  }

  @MessagePattern(INVITATIONS.USE)
  use(@Payload() message: InvitationTokenMessage): Promise<boolean> {
    const { propertyId, digest } = readInvitationToken(message);
    return this.invitations.use(propertyId, digest, readUseId(message));
  }

  @MessagePattern(INVITATIONS.RELEASE)
  release(@Payload() message: InvitationTokenMessage): Promise<boolean> {
    const { propertyId, digest } = readInvitationToken(message);
    return this.invitations.release(propertyId, digest, readUseId(message));
  }
}

function readUseId(message: InvitationTokenMessage): string | null {
  const useId = message.use_id;
  if (useId === undefined) return null;
  if (typeof useId !== 'string' || useId.length === 0 || useId.length > 255) {
    throw new ServiceError(ErrorCode.VALIDATION_FAILED, 'malformed invitation message');
  }
  return useId;
}

/** A digest has the shape of a token: 32 bytes in base64url. */
function readInvitationToken(message: InvitationTokenMessage): { propertyId: number; digest: string } {
  if (!isPositiveId(message?.property_id) || typeof message.token_digest !== 'string' || !FORM_TOKEN.test(message.token_digest)) {
    throw new ServiceError(ErrorCode.VALIDATION_FAILED, 'malformed invitation message');
  }
  return { propertyId: message.property_id, digest: message.token_digest };
}
