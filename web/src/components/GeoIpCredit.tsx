// DB-IP's licence (CC BY 4.0) asks for a link back wherever its results are shown: country, region
// and city come from the DB-IP City Lite database that Hoglet ships (docs/geoip.md).
export function GeoIpCredit() {
  return (
    <p class="muted geoip-credit" data-testid="geoip-credit">
      <a href="https://db-ip.com" target="_blank" rel="noopener noreferrer">IP Geolocation by DB-IP</a>
    </p>
  );
}
