// The public surface of the access-reviews feature: what the route table may import.

export { AccessReviewsSection } from './AccessReviewsSection';
