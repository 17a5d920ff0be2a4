export { readPublished, readPublishedByHost, type PublishedAnswer, type PublishedRequest } from './reader';
export { getCustomization, getPublishingAuth, regeneratePublishingAuth, updateCustomization, updatePublishingAuth } from './settings';
