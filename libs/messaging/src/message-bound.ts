import { createParamDecorator, ExecutionContext } from '@nestjs/common';
import { PacketId, ReadPacket, RmqContext, RmqRecord } from '@nestjs/microservices';
import { RmqRecordSerializer } from '@nestjs/microservices/serializers/rmq-record.serializer';
import { messageIdOf } from './settlement';

/**
 * A message body that names the id of the message carrying it (its correlation id), which
 * @nestjs/microservices draws only as it sends the message: `build` is called with it then.
 * What must open only in this one message (a value sealed for it) is made in `build`.
 */
export class BoundToMessage {
  constructor(readonly build: (messageId: string) => unknown) {}
}

/** The producers' serializer: Nest's own, then any BoundToMessage body built with the message id. */
export class MessageSerializer extends RmqRecordSerializer {
  override serialize(packet: ReadPacket & Partial<PacketId>): ReadPacket & Partial<RmqRecord> {
    const serialized = super.serialize(packet);
    const { data } = serialized;
    return data instanceof BoundToMessage ? { ...serialized, data: data.build(String(packet.id)) } : serialized;
  }
}

/** A delivered message's body together with its message id, for a pipe that needs both. */
export interface DeliveredMessage {
  data: unknown;
  messageId: string;
}

/** Injects the DeliveredMessage into a message handler; pipes given to it transform that. */
export const Delivered = createParamDecorator((_: unknown, context: ExecutionContext): DeliveredMessage => {
  const rpc = context.switchToRpc();
  return { data: rpc.getData(), messageId: messageIdOf(rpc.getContext<RmqContext>().getMessage()) };
});
