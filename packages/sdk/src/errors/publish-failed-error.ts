import { WeftError } from '@weft/protocol';

/** `publish` could not store the value (the server refused it or stayed unreachable). */
export class PublishFailedError extends WeftError {
  constructor(name: string) {
    super({
      code: 'WEFT_PUBLISH_FAILED',
      message: `publish: object ${name} could not be stored; see the "object-upload" warning (NODE_DEBUG=weft) for the server's answer.`,
    });
  }
}
