#!/usr/bin/perl
# Claim: after the provider refuses a refresh with invalid_grant (400, or a 200 with an error
# body), the library keeps the token it had, refused refresh token included
# (OAuth2.pm:234-236 and 131-143: an error string is passed to error() and access_token is left
# as it was), so the application's next call sends the same refresh again instead of
# requiring a sign-in. The same holds when the refresh follows a 401 invalid_token.
use strict;
use warnings;
use FindBin;
use lib "$FindBin::Bin/lib";
use ProbeServer qw(json_response oauth2 saved_token verdict);

my $server = ProbeServer->start(sub {
    my ($request, $number) = @_;
    if ($request->uri->path eq '/token') {
        return $number % 2 ? json_response(400, { error => 'invalid_grant' }) : json_response(200, { error => 'invalid_grant' });
    }
    return json_response(401, { error => 'invalid_token' }, 'WWW-Authenticate' => 'Bearer error="invalid_token"');
});

my @refreshes;
for my $case ('an expired token', 'an unexpired token rejected with 401 invalid_token') {
    my $oauth2 = oauth2($server->url, token_string => saved_token($case =~ /expired token$/ ? (age => 3700) : (age => 0)));
    for my $call (1, 2) {
        eval { $oauth2->get($server->url . '/resource') };
        (my $error = $@) =~ s/\n+/ | /g;
        print "$case, call $call: died with: $error\n";
        push @refreshes, $oauth2->access_token->{refresh_token};
        print "  the library still holds refresh_token ", $oauth2->access_token->{refresh_token}, "\n";
    }
}
$server->stop;
verdict((grep { $_ eq 'rt-1' } @refreshes) == 4,
    'after invalid_grant the refused refresh token is kept, and the next call sends the same refresh again',
    'the refused refresh token was dropped');
