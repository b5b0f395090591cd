/** Display names of well-known plugins and themes, so fleet files can omit them. */
const KNOWN_NAMES: Record<string, string> = {
  'akismet/akismet.php': 'Akismet Anti-spam: Spam Protection',
  'woocommerce/woocommerce.php': 'WooCommerce',
  'wordpress-seo/wp-seo.php': 'Yoast SEO',
  'contact-form-7/wp-contact-form-7.php': 'Contact Form 7',
  'elementor/elementor.php': 'Elementor',
  'jetpack/jetpack.php': 'Jetpack',
  'classic-editor/classic-editor.php': 'Classic Editor',
  'wordfence/wordfence.php': 'Wordfence Security',
  twentytwentyfour: 'Twenty Twenty-Four',
  twentytwentyfive: 'Twenty Twenty-Five',
  astra: 'Astra',
  default: 'WordPress',
};

/** A known name, or one derived from the slug's folder: `my-plugin/x.php` → `My Plugin`. */
export function displayName(slug: string): string {
  const known = KNOWN_NAMES[slug];
  if (known) return known;
  const folder = slug.split('/')[0] ?? slug;
  return folder
    .split(/[-_]+/)
    .filter((word) => word.length > 0)
    .map((word) => word[0]?.toUpperCase() + word.slice(1))
    .join(' ');
}
