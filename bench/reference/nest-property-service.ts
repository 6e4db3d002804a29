/**
 * Reference: the service half of get-property as the NestJS docs show it, with the stack's
 * guarantees: Transport.RMQ on a durable quorum queue, manual acknowledgement (`noAck: false`)
 * after the read, a bounded prefetch, and a mongoose model read with `findById` on the same
 * database server the stack uses.
 */
import { Controller, Injectable, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { Ctx, MessagePattern, MicroserviceOptions, Payload, RmqContext, Transport } from '@nestjs/microservices';
import { InjectModel, MongooseModule, Prop, Schema, SchemaFactory } from '@nestjs/mongoose';
import { Model } from 'mongoose';
import { GET_PROPERTY_PATTERN, READY_LINE, REFERENCE_COLLECTION, referenceDatabase, referenceSettings } from './settings';

@Schema({ collection: REFERENCE_COLLECTION, versionKey: false })
class Property {
  @Prop({ type: String })
  _id: string;

  @Prop()
  id: number;

  @Prop()
  name: string;
}

const PropertySchema = SchemaFactory.createForClass(Property);

@Injectable()
class PropertiesService {
  constructor(@InjectModel(Property.name) private readonly properties: Model<Property>) {}

  findOne(id: number) {
    return this.properties.findById(String(id)).lean();
  }
}

@Controller()
class PropertiesController {
  constructor(private readonly service: PropertiesService) {}

  @MessagePattern(GET_PROPERTY_PATTERN)
  async get(@Payload() { id }: { id: number }, @Ctx() context: RmqContext): Promise<unknown> {
    const property = await this.service.findOne(id);
    context.getChannelRef().ack(context.getMessage());
    return property;
  }
}

const { uri, dbName } = referenceDatabase();

@Module({
  imports: [
    MongooseModule.forRoot(uri, { dbName }),
    MongooseModule.forFeature([{ name: Property.name, schema: PropertySchema }]),
  ],
  controllers: [PropertiesController],
  providers: [PropertiesService],
})
class PropertyServiceModule {}

async function main(): Promise<void> {
  const { amqpUrl, queue } = referenceSettings();
  const app = await NestFactory.createMicroservice<MicroserviceOptions>(PropertyServiceModule, {
    transport: Transport.RMQ,
    options: {
      urls: [amqpUrl],
      queue,
      queueOptions: { durable: true, arguments: { 'x-queue-type': 'quorum' } },
      noAck: false,
      prefetchCount: 32,
    },
    logger: ['error', 'warn'],
  });
  await app.listen();
  console.log(READY_LINE);
}

void main();
