import { builder } from './builder';

// The one root of live updates; each module adds its own fields with `builder.subscriptionField`.
builder.subscriptionType({
  description: 'Live updates, over server-sent events (`Accept: text/event-stream`). Each event is read afresh, with your rights at that moment: losing access to what you watch ends the stream.',
});
