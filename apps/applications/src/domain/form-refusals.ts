import { ErrorCode, FORM_SUBMISSION_FIELD, ServiceError } from '@app/contracts';

/** What a change of an applicant whose form is completed (signed) is refused with. */
export function alreadyCompleted(): ServiceError {
  return refused('this application form is already completed');
}

/**
 * What a change of an applicant whose application's personal data was erased is refused with: the
 * form would store again what was erased.
 */
export function personalDataErased(): ServiceError {
  return refused('the personal data of this application was erased; the form takes no more answers');
}

/** A form page sent again, or while its first sending is still at work. */
export function alreadySubmitted(): ServiceError {
  const message = 'this page was already submitted; open the form again to continue';
  return new ServiceError(ErrorCode.VALIDATION_FAILED, message, [{ field: FORM_SUBMISSION_FIELD, message }]);
}

export function refused(message: string): ServiceError {
  return new ServiceError(ErrorCode.VALIDATION_FAILED, message, [{ field: 'form', message }]);
}
