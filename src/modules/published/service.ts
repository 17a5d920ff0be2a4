export { pagePolicy } from './csp';
export { readPublished, readPublishedByHost, type PublishedAnswer, type PublishedRequest } from './reader';
export { CUSTOMIZATION_URLS, getCustomization, getPublishingAuth, regeneratePublishingAuth, updateCustomization, updatePublishingAuth } from './settings';
export { lookupPublishedUrl, type UrlLookup } from './lookup';
