import { Body, Controller, HttpCode, Param, Post, UseGuards } from '@nestjs/common';
import { ApiBearerAuth, ApiHeader, ApiOperation, ApiTags } from '@nestjs/swagger';
import {
  ContractPipe,
  CreateInvitationMessage,
  CreateInvitationRequest,
  INVITATIONS,
  InvitationResponse,
  propertyRefFromPath,
} from '@app/contracts';
import { ApiKeyGuard, ClientId } from '../auth/api-key.guard';
import { Backends } from '../backends/backends';
import { ApiErrorResponses, ApiSuccess } from '../openapi/api-responses';
import { API_KEY_SCHEME } from '../openapi/openapi';
import { RateLimitGuard } from '../rate-limit/rate-limit.guard';
import { ApiPathId } from '../openapi/path-ids';

@ApiTags('properties')
@ApiBearerAuth(API_KEY_SCHEME)
@ApiHeader({ name: 'X-Request-Id', required: false, description: 'Names the request in the logs; returned as is.' })
@Controller('api/v2/properties/:pid/invitations')
@UseGuards(ApiKeyGuard, RateLimitGuard)
export class InvitationsHttpController {
  constructor(private readonly backends: Backends) {}

  @Post()
  @HttpCode(201)
  @ApiOperation({
    operationId: 'createInvitation',
    summary: 'Invite someone to apply',
    description:
      'A link into the property’s online application form for an invitation_only property: it opens the form ' +
      'until expires_at and starts one application. The link is shown in this answer only.',
  })
  @ApiPathId('pid', 'The property’s id, a positive integer.')
  @ApiSuccess(201, InvitationResponse, 'The invitation, with its link.')
  @ApiErrorResponses([400, 401, 404, 413, 415, 422, 429, 503])
  create(
    @ClientId() clientId: number,
    @Param('pid') propertyId: string,
    @Body(new ContractPipe(CreateInvitationRequest)) request: CreateInvitationRequest,
  ): Promise<InvitationResponse> {
    const { id } = propertyRefFromPath(clientId, propertyId);
    const message: CreateInvitationMessage = { client_id: clientId, property_id: id, request };
    return this.backends.properties(INVITATIONS.CREATE, message);
  }
}
