// sessions.$channel_type over events captured through /batch/, with PostHog's own cases as data:
// posthog/hogql/database/schema/test/test_channel_type.py (TestChannelType) and the two channel
// cases of test_sessions_v2.py. PostHog asserts its person cases on `$virt_initial_channel_type`
// (the person's `$initial_*` properties); the rules are the same function over the same inputs, so
// each is sent here as the session's first event with those properties (`$initial_utm_source` ->
// `utm_source`, `$initial_referring_domain` -> `$referring_domain`, as its wild-click helper does).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type Credentials, type TestApp } from '../../helpers/app.js';
import { hogqlRows } from '../../helpers/hogql.js';
import { ev, journeys } from '../../helpers/journeys.js';

type Props = Record<string, unknown>;
interface Case { readonly name: string; readonly props: Props; readonly expected: string }

/** PostHog's `_get_initial_channel_type_from_wild_clicks`: a landing URL's click ids and UTM values, and the referrer's host. */
function wildClick(url: string, referrer: string): Props {
  const query = new URL(url).searchParams;
  const props: Props = {};
  // parse_qs leaves out blank values.
  for (const key of ['utm_source', 'utm_medium', 'utm_campaign', 'gclid', 'gad_source', 'msclkid', 'fbclid']) {
    const value = query.get(key);
    if (value) props[key] = value;
  }
  props.$referring_domain = referrer ? new URL(referrer).host : '$direct';
  return props;
}

/** PostHog's wild clicks: [case, channel, landing URL, referrer] as PostHog recorded them. */
const WILD_CLICKS: [name: string, expected: string, url: string, referrer: string][] = [
  ['test_yahoo_search_for_shoes', 'Paid Search', 'https://www.temu.com/subject/n9/googleshopping-landingpage-a-psurl.html?_bg_fs=1&_p_rfs=1&_x_ads_sub_channel=shopping&_x_vst_scene=adg&mkt_rec=1&goods_id=601099512027500&sku_id=17592188550581&_x_ns_sku_id=17592188550581&_x_ads_channel=bing&_x_gmc_account=3429411&_x_gmc_catalog=1080172&_x_ads_creative_id=82326302656241&_x_ns_device=c&_x_ads_account=176202708&_x_ns_match_type=e&_x_ns_msclkid=98833ce81fa416f104e8599a17a48b7d&_x_ads_set=519351414&_x_ns_source=o&_x_ads_id=1317217234030436&msclkid=98833ce81fa416f104e8599a17a48b7d&utm_source=bing&utm_medium=cpc&utm_campaign=Bing%E8%B4%AD%E7%89%A9_GB_ROI_31148%E6%88%B7%E5%A4%96%E8%BF%90%E5%8A%A8_%E5%85%9C%E5%BA%95_%E9%80%9A%E6%8A%95_CHERIE_0812&utm_term=4585925565374752&utm_content=Bing%E8%B4%AD%E7%89%A9_GB_ROI_31148%E6%88%B7%E5%A4%96%E8%BF%90%E5%8A%A8_%E5%85%9C%E5%BA%95_%E9%80%9A%E6%8A%95_CHERIE_0812_2&adg_ctx=f-939d4ecb', 'https://uk.search.yahoo.com/'],
  ['test_chrome_google_search_for_shoes', 'Paid Search', 'https://www.vivaia.com/item/square-toe-v-cut-flats-p_10003645.html?gid=10011676&currency=GBP&shipping_country_code=GB&gad_source=1&gclid=CjwKCAiA98WrBhAYEiwA2WvhOuiyZpOvzXUVBP0KNplo9EFUSYmm4-gaxt_nFGB4knYLxi-l909iYxoC3OsQAvD_BwE', ''],
  ['test_firefox_google_search_for_shoes', 'Paid Search', 'https://www.allbirds.co.uk/products/mens-wool-runner-mizzles-deep-emerald?gad_source=1&size=uk-7&utm_campaign=PMax%20%2F%2F%20UK%20%2F%2F%20Lifestyle%20Shoes&utm_content=&utm_medium=pmax&utm_source=google&utm_term=', ''],
  ['test_daily_mail_ad_click', 'Paid Unknown', 'https://www.vivaia.com/item/square-toe-v-cut-flats-p_10003645.html?gid=10011676&currency=GBP&shipping_country_code=GB&gclid=EAIaIQobChMIxvGy5rr_ggMVYi0GAB0KSAumEAEYASABEgLZ2PD_BwE', 'https://2bb5cd7f10ba63d8b55ecfac1a3948db.safeframe.googlesyndication.com/'],
  ['test_google_organic', 'Organic Search', 'https://www.office.co.uk/', 'https://www.google.com/'],
  ['test_youtube_organic', 'Organic Video', 'https://twitter.com/hbomberguy', 'https://www.youtube.com/'],
  ['test_youtube_sidebar_ad', 'Paid Video', 'https://www.quooker.co.uk/?gclid=CjwKCAiAmsurBhBvEiwA6e-WPNVcMzaGnrW8G2Wd4Ye-dB5GZMPxohf-_sJRqThISXVzS97mq4s2MBoCK_wQAvD_BwE', 'https://www.youtube.com/'],
  ['test_youtube_video_ad', 'Paid Video', 'https://www.quooker.co.uk/?gclid=CjwKCAiAmsurBhBvEiwA6e-WPNVcMzaGnrW8G2Wd4Ye-dB5GZMPxohf-_sJRqThISXVzS97mq4s2MBoCK_wQAvD_BwE', 'https://www.youtube.com/'],
  ['test_facebook_sidebar_ad', 'Paid Social', 'https://www.tothefairest.com/shop/?utm_source=facebook&utm_medium=cpc&utm_campaign=120201466136570051&fbclid=IwAR30EpkagUJ3vLo7_tl0R8FjnA3vnm5d6jzHvjwhNCm4kXDsAmTfDsckJBc', 'https://l.facebook.com/'],
  ['test_facebook_feed_ad', 'Paid Social', 'https://www.loopearplugs.com/products/switch?utm_source=facebook&utm_medium=paid&utm_campaign=UK_EN_TOF_Purchase_BAU_ABO_NoScale_19.05.23&utm_content=UK_EN_TOF-Fashion-Interest-TOF_AllPlacements_AllGenders_18-65%2B_Carouselimage-Mix-3in1-v2_carousel-image_Question-overstimulation-v1_All_Purchase_LP-Switch_Highest-Value_BAU_Switch_NA&utm_term=120201603163080541&fbclid=IwAR3KhttbYqH0GWskV5LGQKXnPKmHwaKdW8gvHbEPHR5IYX8GDf2hhxAslso', 'https://l.facebook.com/'],
  ['test_facebook_feed_organic_link', 'Organic Social', 'https://lifehacker.com/get-two-of-obsidian-entertainments-best-pc-rpgs-for-fre-1845845998?fbclid=IwAR1ZEOUVr76FRjZWnIio-v0gl5WWvd8soknOd6W6h580Grk34-Jpl1ai-kU', 'https://l.facebook.com/'],
  ['test_bing_ad_click (chrome)', 'Paid Search', 'https://www.mrporter.com/en-gb/mens/product/brunello-cucinelli/shoes/espadrilles/suede-espadrilles/1647597324114522?cm_mmc=sea&vtp00=BING&vtp01=SEAU&vtp02=483499616&vtp03=1239150613976957&vtp04=&vtp05=&vtp06=pla-4581046492826348&vtp07=&vtp08=&vtp09=e&vtp10=o&vtp11=c&vtp12=77447044368184&vtp13=shoes&vtp14=&vtp15=MR%20PORTER&vtp16=0400639982683&vtp17=GB&vtp18=EN&vtp19=4581046492826348&msclkid=f72b49e2bf2719cb4ee22c91ac4963a7&utm_source=bing&utm_medium=cpc&utm_campaign=BNG%3AMRP%3AEU%3AGB%3ALO%3AENG%3ASEAU%3APLA%3ASLR%3AMXO%3ANEW%3AMN%3ABRUNELLO-CUCINELLI%3ALV0%3ALV1%3ALV2%3AXXX%3A14%3AEMPTY%3A&utm_term=4581046492826348&utm_content=GOO%3AMRP%3AEU%3AGB%3ALO%3AENG%3ASEAU%3APLA%3ASLR%3AMXO%3ANEW%3AMN%3ABRUNELLO-CUCINELLI%3ASHOES%3ASUEDE_SHOES%3ASUEDE_SHOES%3AXXX%3A14%3AEMPTY%3A', 'https://www.bing.com/'],
  ['test_bing_ad_click (firefox)', 'Paid Search', 'https://www.nisbets.co.uk/nisbets-essentials-chefs-clog-black-3839/b979-3839?vatToggle=incvat&plaid=1&cm_mmc=BingPLA-_-710225369-_-1246847484880804-_-B979-3839&cm_mmca1=bi_710225369_1246847484880804_77928093437482_pla-4581527532440033_c_&utm_id=bing_710225369_1246847484880804_77928093437482_pla-4581527532440033%3Apla-4581527532440033_c&kpid=bi_cmp-710225369_adg-1246847484880804_ad-77928093437482_pla-4581527532440033_dev-c_ext-_prd-B979-3839_sig-febaceddde9f13596573abaecd6840bc&utm_source=bing&utm_medium=cpc&utm_campaign=8+-+Shopping+-+Clothing&utm_term=4581527532440033&utm_content=Clothing', ''],
  ['test_bing_organic_click', 'Organic Search', 'https://www.schuh.co.uk/', 'https://www.bing.com/'],
  ['test_duckduckgo_organic_click', 'Organic Search', 'https://www.asos.com/women/shoes/cat/?cid=4172', 'https://duckduckgo.com/'],
  ['test_duckduckgo_paid_click', 'Paid Search', 'https://www.temu.com/uk/kuiper/un2.html?_p_rfs=1&subj=un-search1&_p_jump_id=831&_x_vst_scene=adg&search_key=.%20shoes&_x_ads_sub_channel=search&_x_ads_channel=bing&_x_ads_account=176202190&_x_ads_set=519193183&_x_ads_id=1316117718217619&_x_ads_creative_id=82257583982288&_x_ns_source=s&_x_ns_msclkid=0c97748ea8581c0fa51611f9afccba18&_x_ns_match_type=e&_x_ns_bid_match_type=be&_x_ns_query=shoes&_x_ns_keyword=.%20shoes&_x_ns_device=c&_x_ns_targetid=kwd-82258273368290%3Aloc-188&_x_ns_extensionid=&msclkid=0c97748ea8581c0fa51611f9afccba18&utm_source=bing&utm_medium=cpc&utm_campaign=0725_WJJ_UK_KW_web-app-purchase-offline%7Cweb-purchase-offline_UK%E9%AB%98%E8%8A%B1%E8%B4%B9%E8%AF%8D9533&utm_term=.%20shoes&utm_content=0725_WJJ-%E9%80%9A%E6%8A%95-UK_UK_%E7%BB%9F%E4%B8%80%E6%90%9C%E7%B4%A2%E9%A1%B5%20%E3%80%90%E7%9B%B4%E6%8E%A5%E6%8A%95%E6%94%BE%E7%94%A8%E3%80%91_webtoapp_EXACT_UK%E9%AB%98%E8%8A%B1%E8%B4%B9%E8%AF%8D4977&adg_ctx=f-939d4ecb', 'https://duckduckgo.com/'],
  ['test_fbclid_only', 'Organic Social', 'https://xyz.com/?fbclid=ABC', ''],
];

const CASES: Case[] = [
  // TestChannelType, person cases ($initial_* as the session's entry values)
  { name: 'test_direct', props: { $referring_domain: '$direct' }, expected: 'Direct' },
  { name: 'test_direct_empty_string', props: { $referring_domain: '$direct', utm_source: '', utm_medium: '', utm_campaign: '', gclid: '', gad_source: '' }, expected: 'Direct' },
  { name: 'test_direct_null_string', props: { $referring_domain: '$direct', utm_source: 'null', utm_medium: 'null', utm_campaign: 'null', gclid: 'null', gad_source: 'null' }, expected: 'Direct' },
  { name: 'test_cross_network', props: { $referring_domain: '$direct', utm_campaign: 'cross-network' }, expected: 'Cross Network' },
  { name: 'test_paid_shopping_domain', props: { $referring_domain: 'www.ebay.co.uk', utm_medium: 'ppc' }, expected: 'Paid Shopping' },
  { name: 'test_paid_shopping_source', props: { utm_source: 'ebay', utm_medium: 'ppc' }, expected: 'Paid Shopping' },
  { name: 'test_paid_shopping_campaign', props: { utm_campaign: 'shopping', utm_medium: 'ppc' }, expected: 'Paid Shopping' },
  { name: 'test_paid_search', props: { $referring_domain: 'www.google.co.uk', gclid: 'some-gclid' }, expected: 'Paid Search' },
  { name: 'test_paid_search_source', props: { utm_source: 'yahoo', utm_medium: 'ppc' }, expected: 'Paid Search' },
  { name: 'test_paid_video', props: { $referring_domain: 'youtube.com', utm_medium: 'cpc' }, expected: 'Paid Video' },
  { name: 'test_paid_video_source', props: { utm_source: 'youtube.com', utm_medium: 'cpc' }, expected: 'Paid Video' },
  { name: 'test_organic_video', props: { $referring_domain: 'youtube.com' }, expected: 'Organic Video' },
  { name: 'test_direct_with_red_herring_utm_tags_is_direct', props: { $referring_domain: '$direct', utm_source: 'what', utm_medium: 'who', utm_campaign: 'slim shady' }, expected: 'Direct' },
  { name: 'test_no_info_is_unknown', props: {}, expected: 'Unknown' },
  { name: 'test_unknown_domain_is_referral', props: { $referring_domain: 'some-unknown-domain.example.com' }, expected: 'Referral' },
  { name: 'test_doesnt_fail_on_numbers', props: { $referring_domain: 'example.com', utm_source: 123, utm_medium: 123, utm_campaign: 123 }, expected: 'Referral' },
  // TestChannelType, session cases (events.session.$channel_type, as here)
  { name: 'test_empty_session', props: {}, expected: 'Unknown' },
  { name: 'test_empty_string_session', props: { utm_source: '', utm_medium: '', utm_campaign: '', referring_domain: '', gclid: '', gad_source: '' }, expected: 'Unknown' },
  // wild clicks (landing URL and referrer recorded by PostHog)
  ...WILD_CLICKS.map(([name, expected, url, referrer]) => ({ name, expected, props: wildClick(url, referrer) })),
  // support tickets and special domains (session cases)
  { name: 'test_zendesk_ticket_14945 (Paid, any case)', expected: 'Paid Social', props: { utm_source: 'Facebook', utm_medium: 'Paid', utm_campaign: 'Foo', referring_domain: 'l.facebook.com', gclid: '', gad_source: '' } },
  { name: 'test_zendesk_ticket_14945 (email medium)', expected: 'Email', props: { utm_source: 'substack', utm_medium: 'email', $referring_domain: 'bing.com' } },
  { name: 'test_zendesk_ticket_14945 (affiliate medium)', expected: 'Affiliate', props: { utm_source: 'Foo', utm_medium: 'affiliate', $referring_domain: 'bing.com' } },
  { name: 'test_zendesk_ticket_14945 (partnership medium)', expected: 'Affiliate', props: { utm_source: 'Foo', utm_medium: 'partnership', $referring_domain: 'foo.com' } },
  { name: 'test_hacker_news (referring domain)', expected: 'Organic Social', props: { utm_source: '', utm_medium: 'in-product', utm_campaign: 'empty-state-docs-link', $referring_domain: 'news.ycombinator.com', gclid: '', gad_source: '' } },
  { name: 'test_hacker_news (source)', expected: 'Organic Social', props: { utm_source: 'news.ycombinator.com', utm_medium: 'in-product', utm_campaign: 'empty-state-docs-link', $referring_domain: '$direct', gclid: '', gad_source: '' } },
  { name: 'test_google_plus (source)', expected: 'Organic Social', props: { utm_source: 'plus.google.com', $referring_domain: '$direct' } },
  { name: 'test_google_plus (referring domain)', expected: 'Organic Social', props: { $referring_domain: 'plus.google.com' } },
  { name: 'test_gmail_app', expected: 'Email', props: { $referring_domain: 'com.google.android.gm' } },
  // test_sessions_v2.py: test_channel_type, test_event_dot_session_dot_channel_type
  { name: 'test_sessions_v2 test_channel_type', expected: 'Paid Search', props: { gad_source: '1' } },
];

let t: TestApp;
let who: Credentials;
const rows = (query: string) => hogqlRows(t, who, query);
const person = (i: number) => `person-${i}`;
const session = (i: number) => `0190a7c0-0000-7000-8000-${String(i).padStart(12, '0')}`;

beforeAll(async () => {
  t = await createTestApp('sqlite');
  who = await t.bootstrap('channel-type@example.com');
  await journeys(t, who, Object.fromEntries(CASES.map((c, i) => [person(i), [ev('$pageview', '2024-06-01T12:00:00Z', { $session_id: session(i), ...c.props })]])));
});
afterAll(() => t.close());

describe("sessions.$channel_type: PostHog's channel cases", () => {
  let byPerson: Map<unknown, unknown>;
  beforeAll(async () => {
    byPerson = new Map((await rows('select distinct_id, events.session.$channel_type from events')).map(([id, channel]) => [id, channel]));
  });

  it.each(CASES.map((c, i) => [c.name, i, c.expected] as const))('%s', (_name, i, expected) => {
    expect(byPerson.get(person(i))).toBe(expected);
  });

  it('the sessions table gives each session the same channel as its events do', async () => {
    const table = new Map((await rows('select session_id, $channel_type from sessions')).map(([id, channel]) => [id, channel]));
    expect(CASES.map((c, i) => table.get(session(i)))).toEqual(CASES.map((c) => c.expected));
  });

  it('filters and groups by it like any session field', async () => {
    expect(await rows("select count() from sessions where $channel_type = 'Paid Search'")).toEqual([[CASES.filter((c) => c.expected === 'Paid Search').length]]);
  });
});
