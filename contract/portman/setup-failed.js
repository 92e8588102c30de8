// A failed set-up must show as a failed test, not as a confusing contract failure.
pm.test('set-up of the contract run succeeded', function () {
  pm.expect(pm.collectionVariables.get('setupError') || '').to.equal('');
});
