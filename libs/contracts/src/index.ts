export * from './patterns';
export * from './errors';
export * from './messages';
export * from './dates';
export * from './dto/property.dto';
export * from './dto/application.dto';
export * from './dto/error.dto';
export * from './validation/parse';
