import { MESSAGE_KINDS, MESSAGE_PREVIEW_CASES } from '@app/contracts';
import { messagePreviews } from './previews';

describe('messagePreviews', () => {
  const settings = {
    sender_name: 'Maple <Rentals>',
    reply_to: null,
    screening_agency: { name: 'Screening Co', address: 'PO Box 800, Woodlyn, PA 19094', phone: '1-800-230-9376' },
  };

  it('renders every message an applicant may receive, each kind and each decision, signed with the sender name', () => {
    const previews = messagePreviews(settings);
    expect(previews.map((preview) => preview.case)).toEqual([...MESSAGE_PREVIEW_CASES]);
    expect(new Set(previews.map((preview) => preview.kind))).toEqual(new Set(MESSAGE_KINDS));
    for (const preview of previews) {
      expect(preview.text).toContain('Maple <Rentals>');
      expect(preview.html).toContain('Maple &lt;Rentals&gt;');
      expect(preview.text).not.toContain('null');
    }
  });

  it('names the client’s screening agency in the decline on the screening report, and no other', () => {
    const previews = messagePreviews(settings);
    const naming = previews.filter((preview) => preview.text.includes('Screening Co'));
    expect(naming.map((preview) => preview.case)).toEqual(['decision_declined_screening_report']);
    expect(naming[0].text).toContain('consumer report from Screening Co, PO Box 800, Woodlyn, PA 19094, phone 1-800-230-9376.');
    const unset = messagePreviews({ ...settings, screening_agency: null }).find(
      (preview) => preview.case === 'decision_declined_screening_report',
    )!;
    expect(unset.text).toContain('reply to this e-mail for its name, address and phone number');
  });
});
