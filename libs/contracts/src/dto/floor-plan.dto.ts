import { ApiProperty } from '@nestjs/swagger';
import { NestedField, NumberField, StringField } from '../validation/fields';
import { FloorPlanRepresentation, MAX_FLOOR_PLANS } from './property.dto';

/** Upper bounds, so that no absurd number is stored. */
export const MAX_ROOMS = 100;
export const MAX_AMOUNT = 10_000_000;

/** `floor_plan` inside POST /api/v2/properties/:pid/floor_plans. */
export class FloorPlanInput {
  @StringField({ required: true, trim: true, min: 1, max: 255 })
  @ApiProperty({ description: 'Trimmed.', example: 'Two bedroom' })
  name: string;

  @NumberField({ nullable: true, min: 0, max: MAX_ROOMS })
  @ApiProperty({ description: 'Bedrooms; null when not stated.', example: 2 })
  beds?: number | null;

  @NumberField({ nullable: true, min: 0, max: MAX_ROOMS })
  @ApiProperty({ description: 'Bathrooms, fractions allowed; null when not stated.', example: 1.5 })
  baths?: number | null;

  @NumberField({ nullable: true, min: 0, max: MAX_AMOUNT })
  @ApiProperty({ description: 'Deposit amount; null when not stated.', example: 1200 })
  deposit?: number | null;

  @NumberField({ nullable: true, min: 0, max: MAX_AMOUNT })
  @ApiProperty({ description: 'Monthly rent; null when not stated.', example: 1850 })
  rent?: number | null;
}

/** `floor_plan` inside PATCH .../floor_plans/:id: any field of FloorPlanInput; the rest keep their values. */
export class FloorPlanChanges {
  @StringField({ trim: true, min: 1, max: 255 })
  @ApiProperty({ description: 'Trimmed. Unchanged when left out.', example: 'Two bedroom, renovated' })
  name?: string;

  @NumberField({ nullable: true, min: 0, max: MAX_ROOMS })
  @ApiProperty({ description: 'Bedrooms; null clears it. Unchanged when left out.', example: 2 })
  beds?: number | null;

  @NumberField({ nullable: true, min: 0, max: MAX_ROOMS })
  @ApiProperty({ description: 'Bathrooms, fractions allowed; null clears it. Unchanged when left out.', example: 2.5 })
  baths?: number | null;

  @NumberField({ nullable: true, min: 0, max: MAX_AMOUNT })
  @ApiProperty({ description: 'Deposit amount; null clears it. Unchanged when left out.', example: 1500 })
  deposit?: number | null;

  @NumberField({ nullable: true, min: 0, max: MAX_AMOUNT })
  @ApiProperty({ description: 'Monthly rent; null clears it. Unchanged when left out.', example: 1950 })
  rent?: number | null;
}

export class CreateFloorPlanRequest {
  @NestedField(() => FloorPlanInput, { required: true })
  floor_plan: FloorPlanInput;
}

export class UpdateFloorPlanRequest {
  @NestedField(() => FloorPlanChanges, { required: true })
  floor_plan: FloorPlanChanges;
}

export class FloorPlanResponse {
  @ApiProperty()
  floor_plan: FloorPlanRepresentation;
}

export class FloorPlanListResponse {
  @ApiProperty({
    type: [FloorPlanRepresentation],
    maxItems: MAX_FLOOR_PLANS,
    description: 'Every floor plan of the property, oldest first.',
  })
  floor_plans: FloorPlanRepresentation[];
}
