/*
 * Integration events in one place: recording them (each installation concerned gets its own, and
 * the queue delivers it), delivering them to the script or the dev tunnel, and the two that are
 * answered at once to a waiting caller (a render, a request to a public endpoint). Other modules
 * record events through here; the installations module lists them.
 */
export { DELIVER_TASK, emitIntegrationEvent, installationGiven, recordEvent, type EventScope } from './record';
export { deliverRecorded, deliverTask, type Delivered, type DeliveryContext } from './deliver';
export { presentEnvironmentWith, type EnvironmentPresenter, type EnvironmentSubjects } from './environment';
export { activeInstallation, activeInstallationsOnSpace, deliverFetch, deliverPublishedScript, renderIntegrationUI, type EndpointAnswer, type Rendered, type RenderScope } from './inline';
export { cachedDocumentRender, documentRenderKey, renderDocumentBlock, type BlockOutcome, type DocumentBlock } from './render-cache';
