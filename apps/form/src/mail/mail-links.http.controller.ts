import { Controller, Get, Param, Post, Res } from '@nestjs/common';
import { FastifyReply } from 'fastify';
import { AddressLinkAnswer, AddressLinkMessage, NOTIFICATIONS } from '@app/contracts';
import { FORM_TOKEN, formTokenDigest } from '@app/crypto';
import { FormBackends } from '../backends/form-backends';
import { FormPost } from '../form/form-prelude';
import { FormFlow, Refusal } from '../form/form-flow';

const UNKNOWN_LINK = new Refusal(
  404,
  'Link not found',
  'This link is not one our e-mails carried, or it was copied incompletely. Open it again from the e-mail.',
);

/**
 * The links an e-mail carries about its own address. The confirmation link asks for a click on
 * its page (a POST with the form's CSRF token), since a mail scanner that fetches every link must
 * not confirm an address for its owner. The List-Unsubscribe link is also posted to by the reader
 * itself, with `List-Unsubscribe=One-Click` and no token (RFC 8058): that POST needs none, the
 * link being the secret, and stopping mail is never worse than sending it. Nor is it counted
 * against its sender's address (ONE_CLICK_UNSUBSCRIBE_ROUTE): a mail provider posts for all its readers.
 */
@Controller('mail')
export class MailLinksHttpController {
  constructor(
    private readonly flow: FormFlow,
    private readonly backends: FormBackends,
  ) {}

  @Get('confirm/:token')
  confirmation(@Param('token') token: string, @Res() reply: FastifyReply): FastifyReply {
    return this.linkPage(reply, 'confirm', token, {
      title: 'Confirm your e-mail address',
      message: 'Confirm that this address is yours and that you want the e-mails about your rental application.',
      button: 'Confirm my address',
    });
  }

  /** Confirmed by the page's button only (the prelude's CSRF check): a link scanner's GET confirms nothing. */
  @FormPost('confirm/:token')
  async confirm(@Param('token') token: string, @Res() reply: FastifyReply): Promise<FastifyReply> {
    linkToken(token);
    const answer = await this.follow(NOTIFICATIONS.CONFIRM_ADDRESS, token);
    return this.flow.pages.send(reply, 200, 'message', {
      title: 'Address confirmed',
      iframe: false,
      message: `Thank you. The e-mails about your application for ${answer.property_name} will reach you at this address.`,
    });
  }

  @Get('unsubscribe/:token')
  unsubscription(@Param('token') token: string, @Res() reply: FastifyReply): FastifyReply {
    return this.linkPage(reply, 'unsubscribe', token, {
      title: 'Stop e-mails to this address',
      message: 'No e-mail of ours, about any application, will be sent to this address again.',
      button: 'Stop the e-mails',
    });
  }

  @Post('unsubscribe/:token')
  async unsubscribe(@Param('token') token: string, @Res() reply: FastifyReply): Promise<FastifyReply> {
    linkToken(token);
    await this.follow(NOTIFICATIONS.UNSUBSCRIBE, token);
    return this.flow.pages.send(reply, 200, 'message', {
      title: 'E-mails stopped',
      iframe: false,
      message: 'No more e-mail of ours will be sent to this address.',
    });
  }

  /** The page a link opens: what its click does, and the button that posts it. Nothing is asked of anyone yet. */
  private linkPage(
    reply: FastifyReply,
    purpose: 'confirm' | 'unsubscribe',
    token: string,
    copy: { title: string; message: string; button: string },
  ): FastifyReply {
    const action = `/mail/${purpose}/${linkToken(token)}`;
    return this.flow.pages.send(reply, 200, 'mail-link', {
      ...copy,
      iframe: false,
      action,
      csrf: this.flow.csrf.issue(action),
    });
  }

  private async follow(pattern: string, token: string): Promise<AddressLinkAnswer> {
    const message: AddressLinkMessage = { token_digest: formTokenDigest(token) };
    const answer = await this.backends.notifications<AddressLinkAnswer | null>(pattern, message);
    if (!answer) throw UNKNOWN_LINK;
    return answer;
  }
}

/** The token of a link, or the page that says the link is unknown. */
function linkToken(token: string): string {
  if (!FORM_TOKEN.test(token)) throw UNKNOWN_LINK;
  return token;
}
