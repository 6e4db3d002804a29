import { Prop, Schema, SchemaFactory } from '@nestjs/mongoose';
import { PROPERTY_KINDS, PropertyKind } from '@app/contracts';

// Floor plans live inside their property: creating both is then one atomic insert, which
// matters on a database without transactions.
@Schema({ _id: false, versionKey: false })
export class FloorPlanRecord {
  @Prop({ required: true })
  id: number;

  @Prop({ required: true })
  property_id: number;

  @Prop({ required: true })
  name: string;

  @Prop({ type: Number, default: null })
  beds: number | null;

  @Prop({ type: Number, default: null })
  baths: number | null;

  @Prop({ type: Number, default: null })
  deposit: number | null;

  @Prop({ type: Number, default: null })
  rent: number | null;

  /** Names the request that added it, so a request done twice adds it once; never returned. */
  @Prop({ type: String })
  request_key?: string;
}

export const FloorPlanSchema = SchemaFactory.createForClass(FloorPlanRecord);

@Schema({ collection: 'properties', versionKey: false, autoIndex: false })
export class PropertyRecord {
  @Prop({ required: true })
  id: number;

  @Prop({ required: true })
  client_id: number;

  @Prop({ required: true })
  available: boolean;

  @Prop({ required: true, type: String, enum: PROPERTY_KINDS })
  kind: PropertyKind;

  @Prop({ required: true })
  name: string;

  @Prop({ type: String, default: '' })
  street: string;

  @Prop({ type: String, default: '' })
  city: string;

  @Prop({ type: String, default: '' })
  state: string;

  @Prop({ type: String, default: '' })
  zip: string;

  /**
   * The landlord or management company applicants deal with, and its contact; "" when unset,
   * absent from properties stored before they were kept.
   */
  @Prop({ type: String, default: '' })
  manager_name?: string;

  @Prop({ type: String, default: '' })
  manager_email?: string;

  @Prop({ type: String, default: '' })
  manager_phone?: string;

  @Prop({ required: true })
  invitation_only: boolean;

  @Prop({ type: String, default: '' })
  invitation_only_message: string;

  @Prop({ required: true })
  form_preset_id: number;

  @Prop({ required: true })
  background_config_id: number;

  @Prop({ type: [FloorPlanSchema], default: [] })
  floor_plans: FloorPlanRecord[];

  @Prop({ required: true })
  created_at: Date;

  @Prop({ required: true })
  updated_at: Date;

  /** Names the request that created it, so a request done twice stores it once. */
  @Prop({ required: true })
  request_key: string;

  /** The domain events its creation recorded (see EventOutbox); never returned. */
  event_ids?: string[];

  /**
   * The number of changes made to the property; change n is claimed in property_versions under
   * `<id>:<n>`, which holds the state it made. This document may lag behind the latest change.
   */
  @Prop({ type: Number, default: 0 })
  version: number;

  /** Deleted properties are kept, so their ids are never handed out again. */
  @Prop({ type: Date, default: null })
  deleted_at: Date | null;
}

export const PropertySchema = SchemaFactory.createForClass(PropertyRecord);

/** What a change may alter; the rest (id, owner, background config, creation) is fixed at create. */
export const MUTABLE_FIELDS = [
  'form_preset_id',
  'available',
  'kind',
  'name',
  'street',
  'city',
  'state',
  'zip',
  'manager_name',
  'manager_email',
  'manager_phone',
  'invitation_only',
  'invitation_only_message',
  'floor_plans',
  'updated_at',
  'deleted_at',
] as const;

export type PropertyState = Pick<PropertyRecord, (typeof MUTABLE_FIELDS)[number]>;

export function stateOf(record: PropertyRecord): PropertyState {
  return Object.fromEntries(MUTABLE_FIELDS.map((field) => [field, record[field]])) as PropertyState;
}
