// `npm run lint` checks the Markdown's links with remark: every link to a file of the repository,
// and to a heading in one, must lead somewhere. Nothing is fetched: links to other sites are left
// alone, and so are links to this repository's own hosted copy (repository: false).
import remarkValidateLinks from 'remark-validate-links';

export default {
  plugins: [[remarkValidateLinks, { repository: false }]],
};
