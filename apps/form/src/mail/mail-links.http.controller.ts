import { Controller, Get, Param, Post, Res } from '@nestjs/common';
import { FastifyReply } from 'fastify';
import {
  AddressLinkAnswer,
  AddressLinkDescription,
  AddressLinkDescriptionMessage,
  AddressLinkMessage,
  NOTIFICATIONS,
} from '@app/contracts';
import { FORM_TOKEN, formTokenDigest } from '@app/crypto';
import { FormBackends } from '../backends/form-backends';
import { FormPost } from '../form/form-prelude';
import { FormFlow, Refusal } from '../form/form-flow';

const UNKNOWN_LINK = new Refusal(
  404,
  'Link not found',
  'This link is not one our e-mails carried, or it was copied incompletely. Open it again from the e-mail.',
);

type Purpose = AddressLinkDescriptionMessage['purpose'];

/** What else stops or confirms, once a link's time is over. */
const OTHERWISE: Record<Purpose, string> = {
  unsubscribe:
    'To stop our e-mails to your address, use the link in the latest e-mail you received from us, or reply to that ' +
    'e-mail and ask its sender to stop writing to you.',
  confirm: 'To confirm your address, use the link in a newer e-mail from us, or ask the sender to write to you again.',
};

/** The page of a link whose time is over: it did nothing. */
function expiredLink(purpose: Purpose, days: number): Refusal {
  return new Refusal(
    410,
    'Link expired',
    `This link worked for ${days} days after its e-mail was sent and has expired, so it did nothing. ${OTHERWISE[purpose]}`,
  );
}

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
  async confirmation(@Param('token') token: string, @Res() reply: FastifyReply): Promise<FastifyReply> {
    const link = await this.describe('confirm', token);
    return this.linkPage(reply, 'confirm', token, {
      title: 'Confirm your e-mail address',
      message: `Confirm that ${link.mailbox ?? 'this address'} is yours and that you want the e-mails about your rental application.`,
      button: 'Confirm my address',
    });
  }

  /** Confirmed by the page's button only (the prelude's CSRF check): a link scanner's GET confirms nothing. */
  @FormPost('confirm/:token')
  async confirm(@Param('token') token: string, @Res() reply: FastifyReply): Promise<FastifyReply> {
    linkToken(token);
    const answer = await this.follow('confirm', token);
    return this.flow.pages.send(reply, 200, 'message', {
      title: 'Address confirmed',
      iframe: false,
      message: `Thank you. The e-mails about your application for ${answer.property_name} will reach you at this address.`,
    });
  }

  /** Names the address, masked: one who was forwarded the e-mail sees that it is not theirs. */
  @Get('unsubscribe/:token')
  async unsubscription(@Param('token') token: string, @Res() reply: FastifyReply): Promise<FastifyReply> {
    const link = await this.describe('unsubscribe', token);
    const notYours = link.mailbox ? ' If that is not your address, the e-mail was forwarded to you: leave this page.' : '';
    return this.linkPage(reply, 'unsubscribe', token, {
      title: 'Stop e-mails to this address',
      message: `No e-mail of ours, about any application, will be sent to ${link.mailbox ?? 'this address'} again.${notYours}`,
      button: 'Stop the e-mails',
    });
  }

  @Post('unsubscribe/:token')
  async unsubscribe(@Param('token') token: string, @Res() reply: FastifyReply): Promise<FastifyReply> {
    linkToken(token);
    await this.follow('unsubscribe', token);
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

  /** Follows the link: an unknown or expired one does nothing, and its page says which. */
  private async follow(purpose: Purpose, token: string): Promise<AddressLinkAnswer> {
    const pattern = purpose === 'confirm' ? NOTIFICATIONS.CONFIRM_ADDRESS : NOTIFICATIONS.UNSUBSCRIBE;
    const message: AddressLinkMessage = { token_digest: formTokenDigest(token) };
    const answer = await this.backends.notifications<AddressLinkAnswer | null>(pattern, message);
    if (answer) return answer;
    await this.describe(purpose, token);
    throw UNKNOWN_LINK;
  }

  /** The link as its page names it: the page that says it is unknown or expired otherwise. */
  private async describe(purpose: Purpose, token: string): Promise<AddressLinkDescription> {
    const message: AddressLinkDescriptionMessage = { token_digest: formTokenDigest(linkToken(token)), purpose };
    const link = await this.backends.notifications<AddressLinkDescription | null>(NOTIFICATIONS.DESCRIBE_LINK, message);
    if (!link) throw UNKNOWN_LINK;
    if (link.expired) throw expiredLink(purpose, link.lifetime_days);
    return link;
  }
}

/** The token of a link, or the page that says the link is unknown. */
function linkToken(token: string): string {
  if (!FORM_TOKEN.test(token)) throw UNKNOWN_LINK;
  return token;
}
