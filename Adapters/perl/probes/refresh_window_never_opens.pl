#!/usr/bin/perl
# Claim: the documented early refresh (early_refresh_time, "This defaults to 300"; "Values over
# half the initial expiration time of access tokens will be ignored") never happens: should_refresh
# caps the window at half the token's *remaining* lifetime (AccessToken.pm:43-45) and then asks
# whether the remaining lifetime is below that (AccessToken.pm:47), which is never true while
# the token lives. A one-hour token with 200 s left (inside the 300 s window) is sent as it is;
# the refresh comes only once the token has expired.
use strict;
use warnings;
use FindBin;
use lib "$FindBin::Bin/lib";
use ProbeServer qw(json_response oauth2 saved_token verdict);

my $server = ProbeServer->start(sub {
    my ($request) = @_;
    return json_response(200, { access_token => 'at-2', token_type => 'Bearer', expires_in => 3600, refresh_token => 'rt-2' })
        if $request->uri->path eq '/token';
    return json_response(200, { ok => 1 });
});

my %refreshed;
for my $left (200, 100, 1, -1) {
    my $oauth2 = oauth2($server->url, token_string => saved_token(age => 3600 - $left));
    printf "a one-hour token with %d s left: should_refresh() = %d (early_refresh_time %d)\n", $left, $oauth2->should_refresh, $oauth2->{early_refresh_time};
    $oauth2->get($server->url . '/resource');
    $refreshed{$left} = $oauth2->access_token->{access_token} eq 'at-2';
    print "  the call went out with ", ($refreshed{$left} ? 'a refreshed token' : 'the old token'), "\n";
}
$server->stop;
verdict(!$refreshed{200} && !$refreshed{100} && !$refreshed{1} && $refreshed{-1},
    'no refresh inside the 300 s early_refresh_time window: a token with 200, 100 or 1 s left is sent as it is, and only an expired one is refreshed',
    'the library refreshed inside the window, or not even after expiry: ' . join(', ', map { "$_ s left: " . ($refreshed{$_} ? 'refreshed' : 'kept') } sort { $b <=> $a } keys %refreshed));
