#!/usr/bin/perl
# Claim: a refresh response without access_token is taken as a new token: construct_tokens
# refuses a body only for an error member, unreadable JSON or a missing token_type
# (ServiceProvider.pm:240-279), so the token it builds has no access_token and the call goes
# out as "Authorization: Bearer " with nothing after it (AccessToken/Bearer.pm:15). The old
# token is gone, and no error reaches the application.
use strict;
use warnings;
use FindBin;
use lib "$FindBin::Bin/lib";
use ProbeServer qw(json_response oauth2 saved_token verdict);

my @sent;
my $server = ProbeServer->start(sub {
    my ($request) = @_;
    return json_response(200, { token_type => 'Bearer', expires_in => 3600, refresh_token => 'rt-1' })
        if $request->uri->path eq '/token';
    return json_response(401, { error => 'invalid_token' });
});

my $oauth2 = oauth2($server->url, token_string => saved_token(age => 3700));
my $response = eval { $oauth2->get($server->url . '/resource') };
my $error = $@;
print "the refresh answered without access_token: ", ($error ? "the call died: $error" : 'no error; the application got HTTP ' . $response->code), "\n";
my $sent = $response ? $response->request->header('Authorization') : undef;
print "the call carried Authorization: '", $sent // '(none)', "'\n";
$server->stop;
verdict(!$error && defined $sent && $sent =~ /^Bearer\s*$/,
    'a refresh response without access_token is taken as a token: no error, and the call goes out with an empty Bearer token',
    'the library refused the response or kept a token');
